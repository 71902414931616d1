"""A verification (facts without detail facts) sets the detail-facts flag on its state only
for a game that lists detail facts: any other game's state gets its facts and nothing else,
so that it keeps its attributes in the table its class's instances share (replay.finish)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engines import get_game, replay
from engines.core.replay import start
from engines.core.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
WITHOUT_DETAIL_FACTS = ["deep-dive", "deep-sea-adventure", "deep-sea-adventure-boost"]


def simulated(game_id, games=1, seed="late-attributes"):
    game = get_game(game_id)
    return list(simulate(game, game.ruleset(None), game.min_players, games, seed))


@pytest.mark.parametrize("game_id", WITHOUT_DETAIL_FACTS)
def test_a_game_without_detail_facts_gets_its_facts_and_no_flag(game_id):
    assert not get_game(game_id).detail_facts
    [log] = simulated(game_id)
    built = start(log)[2]
    verified = replay(log, collect_facts=True, detail_facts=False).state
    assert set(vars(verified)) - set(vars(built)) == {"facts"}


def test_deep_vents_still_builds_no_detail_facts_in_a_verification():
    [log] = simulated("deep-vents")
    state = replay(log, collect_facts=True, detail_facts=False).state
    assert state.detail_facts is False
    kinds = {fact["type"] for fact in state.facts}
    assert kinds and not kinds & get_game("deep-vents").detail_facts


# Run in a fresh interpreter: the states other tests built would have made room already.
AFTER_MANY_STATES = """
import gc
from engines import get_game, replay
from engines.core.replay import start
from engines.core.simulate import simulate
game = get_game("deep-dive")
logs = list(simulate(game, game.ruleset(None), 4, 40, "late-attributes"))
built = [start(log)[2] for log in logs]
verified = replay(logs[0], collect_facts=True, detail_facts=False).state
# A state whose attributes left the shared table has a dict of its own, which gc then sees
# instead of the values one by one.
print(any(type(part) is dict and "facts" in part for part in gc.get_referents(verified)))
"""


def test_a_deep_dive_verification_after_many_states_keeps_the_shared_table():
    # CPython (3.13) has room in a class's shared table for one name set after some 30
    # instances exist: facts takes it, and a second name would give the state a dict.
    ran = subprocess.run(
        [sys.executable, "-c", AFTER_MANY_STATES],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.strip() == "False"
