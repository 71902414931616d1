"""Golden Deep Dive logs: they verify, and bot games are still played the same way."""

import json
import re
from pathlib import Path

import pytest

from engines import get_game, verify
from engines.core.simulate import game_rng, simulate_game

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests/engines/golden/deep-dive").glob("*.json"))
GAME = get_game("deep-dive")


def test_there_are_golden_logs_for_two_three_and_four_players():
    counts = {len(json.loads(path.read_text())["players"]) for path in GOLDEN}
    assert counts == {2, 3, 4}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_golden_log_verifies_with_its_recorded_result(path):
    log = json.loads(path.read_text())
    outcome = verify(log)
    assert outcome.to_result() == log["result"]


@pytest.mark.parametrize(
    "path", [p for p in GOLDEN if p.stem.startswith("simulated")], ids=lambda path: path.stem
)
def test_bots_replay_their_golden_game_from_its_seed(path):
    log = json.loads(path.read_text())
    run = log["meta"]["simulated"]
    strategies = [player["strategy"] for player in log["players"]]
    again = simulate_game(GAME, GAME.ruleset(), strategies, game_rng(run["seed"], run["index"]))
    assert again["events"] == log["events"]


def test_documented_example_is_the_golden_example_log():
    doc = (ROOT / "docs/games/deep-dive.md").read_text()
    block = re.search(r"```json\n(\{\n  \"format\".*?)```", doc, re.DOTALL)
    assert block, "docs/games/deep-dive.md has no complete example log"
    golden = json.loads((ROOT / "tests/engines/golden/deep-dive/docs-example-tie.json").read_text())
    documented = json.loads(block.group(1))
    assert documented == {key: value for key, value in golden.items() if key != "meta"}
