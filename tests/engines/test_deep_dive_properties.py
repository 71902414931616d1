"""Invariants over random bot games: conservation, faithful replay, tamper resistance."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import LogError, ResultMismatchError, get_game, replay, verify
from engines.core.simulate import play_out, simulate_game
from engines.deep_dive.edition import KINDS

GAME = get_game("deep-dive")
RULESET = GAME.ruleset()
SHELLS_IN_BOX = 48  # DD-1: 30 white + 6 black + 12 empty

tables = st.integers(min_value=2, max_value=4).flatmap(
    lambda players: st.lists(
        st.sampled_from(sorted(GAME.strategies)), min_size=players, max_size=players
    )
)
seeds = st.integers(min_value=0, max_value=2**32)


def bot_game(table, seed):
    return simulate_game(GAME, RULESET, table, random.Random(seed))


@settings(max_examples=40, deadline=None)
@given(table=tables, seed=seeds)
def test_shells_are_conserved_after_every_event(table, seed):
    def check(index, state):
        unopened = state.pool + sum(state.held)
        assert unopened == sum(state.unopened.values())
        opened = sum(state.white_pearls) + state.black_pearls + state.empty_removed
        assert unopened + opened + state.removed_white == SHELLS_IN_BOX
        assert all(state.unopened[kind] >= 0 for kind in KINDS)

    replay(bot_game(table, seed), on_event=check)


@settings(max_examples=30, deadline=None)
@given(table=tables, seed=seeds)
def test_replay_of_an_engine_written_log_reproduces_every_snapshot(table, seed):
    rng = random.Random(seed)
    bots = [GAME.strategies[name]() for name in table]
    state = GAME.new_state(RULESET, len(table), {})
    played = []
    events = play_out(state, bots, rng, on_event=lambda s: played.append(s.snapshot()))
    log = {
        "format": "deepsea-log/1",
        "game": GAME.id,
        "players": [{"name": f"p{seat}"} for seat in range(len(table))],
        "setup": {},
        "events": events,
        "result": state.outcome().to_result(),
    }
    replayed = []
    outcome = replay(log, on_event=lambda index, s: replayed.append(s.snapshot())).outcome
    assert replayed == played
    assert outcome == state.outcome()


def tamper_event(event, data):
    """One plausible mistake in writing an event down."""
    event = dict(event)
    field = data.draw(st.sampled_from(sorted(set(event) | {"type"})), label="field")
    if field == "type":
        event["type"] = data.draw(st.sampled_from(["dive", "shark", "surface", "stay", "open"]))
    elif field == "seat":
        event["seat"] = data.draw(st.integers(min_value=0, max_value=3))
    elif field == "colour":
        event["colour"] = data.draw(st.sampled_from(["red", "blue", "purple", "pink"]))
    else:
        event[field] = data.draw(st.integers(min_value=0, max_value=8))
    return event


@settings(max_examples=60, deadline=None)
@given(table=tables, seed=seeds, data=st.data())
def test_a_tampered_event_is_rejected_from_there_on_or_replays_to_the_claimed_result(
    table, seed, data
):
    log = bot_game(table, seed)
    tampered = copy.deepcopy(log)
    events = tampered["events"]
    index = data.draw(st.integers(min_value=0, max_value=len(events) - 1), label="index")
    action = data.draw(st.sampled_from(["edit", "delete", "duplicate", "swap"]), label="action")
    if action == "edit":
        events[index] = tamper_event(events[index], data)
    elif action == "delete":
        del events[index]
    elif action == "duplicate":
        events.insert(index, dict(events[index]))
    elif index + 1 < len(events):
        events[index], events[index + 1] = events[index + 1], events[index]
    try:
        outcome = verify(tampered)
    except LogError as error:
        # Every event before the tampered one is as the engine wrote it: none is blamed.
        assert error.index is None or error.index >= index, error
        return
    # Accepted (a change that changes nothing): replay confirmed the claimed result exactly.
    assert outcome.to_result() == log["result"]


@settings(max_examples=40, deadline=None)
@given(table=tables, seed=seeds, data=st.data())
def test_moving_a_pearl_between_kinds_in_an_opening_is_rejected(table, seed, data):
    log = bot_game(table, seed)
    openings = [i for i, e in enumerate(log["events"]) if e["type"] == "open" and e["white"]]
    if not openings:
        return
    index = data.draw(st.sampled_from(openings), label="opening")
    other = data.draw(st.sampled_from(["black", "empty"]), label="kind")
    event = log["events"][index]
    event["white"] -= 1
    event[other] += 1
    with pytest.raises(LogError):  # a result mismatch, or an impossible game from there on
        verify(log)


@settings(max_examples=20, deadline=None)
@given(table=tables, seed=seeds, data=st.data())
def test_a_tampered_result_is_rejected(table, seed, data):
    log = bot_game(table, seed)
    seat = data.draw(st.integers(min_value=0, max_value=len(table) - 1))
    log["result"]["scores"][seat] += data.draw(st.sampled_from([-1, 1, 5]))
    with pytest.raises(ResultMismatchError):
        verify(log)
