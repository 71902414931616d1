"""Invariants over random bot games of Deep Sea Adventure and Boost (hypothesis)."""

import copy
import itertools
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.errors import LogError, ResultMismatchError
from engines.core.log import dumps, loads
from engines.core.replay import replay, verify
from engines.core.schema import FORMAT
from engines.core.simulate import game_rng, table_strategies
from engines.registry import get_game

GAME_IDS = ["deep-sea-adventure", "deep-sea-adventure-boost"]
SETTINGS = settings(max_examples=25, deadline=None)


def bot_game(game_id: str, players: int, seed: int) -> tuple[dict, list[dict]]:
    """Play a bot game, returning its log and the snapshot after every event."""
    game = get_game(game_id)
    ruleset = game.ruleset()
    rng = game_rng(seed, 0)
    names = table_strategies(game, players, None, rng)
    bots = [game.strategies[name]() for name in names]
    setup = game.new_setup(ruleset, players, rng)
    state = game.new_state(ruleset, players, setup)
    events, snapshots = [], []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            event = rng.choices([e for e, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            event = bots[state.current_seat()].choose(state, state.legal_actions(), rng)
        state.apply_action(event)
        events.append(event)
        snapshots.append(json.loads(json.dumps(state.snapshot())))
    log = {
        "format": FORMAT,
        "game": game_id,
        "ruleset": ruleset.to_json(),
        "players": [{"name": f"p{seat}", "strategy": name} for seat, name in enumerate(names)],
        "setup": setup,
        "events": events,
        "result": state.outcome().to_result(),
    }
    return log, snapshots


games = st.tuples(st.sampled_from(GAME_IDS), st.integers(2, 6), st.integers(0, 10**6))


def chips_of(snapshot: dict) -> Counter:
    chips = Counter()
    for space in snapshot["path"]:
        chips.update((c["level"], c["value"]) for c in space.get("chips", []))
    for diver in snapshot["divers"]:
        chips.update((c["level"], c["value"]) for item in diver.get("carried", []) for c in item)
        chips.update((c["level"], c["value"]) for c in diver["banked"])
    return chips


@SETTINGS
@given(games)
def test_chips_are_conserved_on_the_path_carried_and_banked(case):
    log, snapshots = bot_game(*case)
    dealt = Counter((index // 8 + 1, value) for index, value in enumerate(log["setup"]["chips"]))
    assert all(chips_of(snapshot) == dealt for snapshot in snapshots)


@SETTINGS
@given(games)
def test_the_air_never_increases_within_a_dive(case):
    _, snapshots = bot_game(*case)
    for before, after in itertools.pairwise(snapshots):
        if before["dive"] == after["dive"] and not after["over"]:
            assert after["air"] <= before["air"]


@SETTINGS
@given(games)
def test_replaying_an_engine_written_log_reproduces_every_snapshot(case):
    log, snapshots = bot_game(*case)
    replayed = []
    result = replay(
        loads(dumps(log)),
        on_event=lambda _, state: replayed.append(json.loads(json.dumps(state.snapshot()))),
    )
    assert replayed == snapshots
    assert result.outcome.to_result() == log["result"]


TAMPERED_FIELDS = {
    "type": st.sampled_from(["turn", "boost", "swim", "roll", "choose", "pick", "drop", "pass"]),
    "seat": st.integers(0, 5),
    "dice": st.lists(st.integers(0, 4), min_size=2, max_size=3),
    "chip": st.integers(0, 4),
    "order": st.lists(st.integers(0, 3), max_size=4),
}


@SETTINGS
@given(games, st.data())
def test_a_tampered_event_is_rejected_from_there_on_or_replays_to_the_claimed_result(case, data):
    log, _ = bot_game(*case)
    tampered = copy.deepcopy(log)
    index = data.draw(st.integers(0, len(log["events"]) - 1))
    field = data.draw(st.sampled_from(sorted(TAMPERED_FIELDS)))
    value = data.draw(TAMPERED_FIELDS[field])
    tampered["events"][index][field] = value
    try:
        outcome = verify(tampered)
    except LogError as error:
        # Every event before the tampered one is as the engine wrote it: none is blamed.
        assert error.index is None or error.index >= index, error
        return
    assert outcome.to_result() == log["result"]


@SETTINGS
@given(games, st.data())
def test_a_tampered_result_is_always_rejected(case, data):
    log, _ = bot_game(*case)
    tampered = copy.deepcopy(log)
    seat = data.draw(st.integers(0, len(log["players"]) - 1))
    tampered["result"]["scores"][seat] += data.draw(st.integers(1, 20))
    with pytest.raises(ResultMismatchError):
        verify(tampered)
