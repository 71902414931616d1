"""Invariants over random bot games (hypothesis): caps, turns, scores, replay, tampering."""

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engines import LogError, replay, verify
from engines.core.errors import ResultMismatchError
from engines.core.schema import FORMAT
from engines.deep_vents.game import DeepVents

GAME = DeepVents()
FAST_BOTS = ["random", "grower", "attacker", "turtle"]


@st.composite
def tables(draw):
    players = draw(st.integers(2, 4))
    bots = draw(st.lists(st.sampled_from(FAST_BOTS), min_size=players, max_size=players))
    ruleset = GAME.ruleset(
        {
            "name": draw(st.sampled_from(["starting-bid", "standard"])),
            "options": {"row_size": draw(st.sampled_from([6, 5]))},
        }
    )
    return ruleset, bots, draw(st.integers(0, 10**6))


def play(ruleset, bots, seed):
    """A bot game kept in hand: its log and its final state."""
    rng = random.Random(seed)
    setup = GAME.new_setup(ruleset, len(bots), rng)
    state = GAME.new_state(ruleset, len(bots), setup)
    players = [GAME.strategies[name]() for name in bots]
    events = []
    while not state.is_terminal():
        event = players[state.current_seat()].choose(state, state.legal_actions(), rng)
        state.apply_action(event)
        events.append(event)
    log = {
        "format": FORMAT,
        "game": GAME.id,
        "ruleset": ruleset.to_json(),
        "players": [{"name": f"p{i}", "strategy": b} for i, b in enumerate(bots)],
        "setup": setup,
        "events": events,
        "result": state.outcome().to_result(),
    }
    return log, state


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(tables())
def test_no_hex_ever_holds_more_than_ten_archaea_dv_6(table):
    log, _ = play(*table)

    def check(index, state):
        for player in state.players:
            assert all(0 <= t.archaea <= 10 for t in player.hexes.values()), index
        assert all(0 <= n <= 10 for n in state.row_archaea), index

    replay(log, on_event=check)


@SETTINGS
@given(tables())
def test_every_player_takes_eight_turns_unless_eliminated_dv_14(table):
    _, state = play(*table)
    in_play = [p for p in state.players if not p.eliminated]
    if state.termination == "normal":
        assert all(p.turns == 8 and len(p.hexes) == 9 for p in in_play)
    else:
        assert len(in_play) <= 1
    assert all(p.turns <= 8 for p in state.players)


@SETTINGS
@given(tables())
def test_scores_follow_the_dv_14_formula_from_the_snapshot(table):
    _, state = play(*table)
    for player in state.snapshot()["players"]:
        hex_term = 0
        if not player["eliminated"]:
            hex_term = -(-sum(h["archaea"] for h in player["hexes"]) // 2)
        expected = player["supply"] + -(-player["shells"] // 2) + hex_term - 10 * player["tokens"]
        assert state.outcome().scores[player["seat"]] == expected


@SETTINGS
@given(tables())
def test_replaying_an_engine_log_reproduces_the_final_snapshot(table):
    log, state = play(*table)
    replayed = replay(json.loads(json.dumps(log)), collect_facts=True)
    assert replayed.state.snapshot() == state.snapshot()
    assert json.loads(json.dumps(replayed.facts)) == replayed.facts  # plain JSON facts


LOGS = [
    play(GAME.ruleset({"name": n}), bots, seed)[0]
    for n, bots, seed in [
        ("starting-bid", ["attacker", "turtle", "random", "grower"], 1),
        ("standard", ["random", "attacker"], 2),
        ("starting-bid", ["turtle", "random", "attacker"], 3),
    ]
]

MUTATIONS = ["bump", "flip", "retype", "reseat", "drop", "duplicate", "swap", "nonsense"]


def mutate(log, index, how, rng):
    bad = copy.deepcopy(log)
    events = bad["events"]
    event = events[index]
    if how == "bump":
        for key in ("amount", "position"):
            if key in event:
                event[key] += rng.choice([-2, -1, 1, 2])
        for key in ("hex", "from", "source"):
            if key in event:
                event[key][rng.randrange(2)] += rng.choice([-1, 1])
    elif how == "flip":
        if "use" in event:
            event["use"] = not event["use"]
        else:
            event["type"] = rng.choice(["grow", "trigger", "end", "payoff"])
    elif how == "retype":
        key = rng.choice([k for k in event if k != "type"] or ["type"])
        event[key] = rng.choice([None, "x", 1.5, [], {}, True, [1], [1, 2, 3], -(10**20)])
    elif how == "reseat":
        event["seat"] = (event["seat"] + rng.randrange(1, 4)) % len(bad["players"])
    elif how == "drop":
        del events[index]
    elif how == "duplicate":
        events.insert(index, copy.deepcopy(event))
    elif how == "swap" and index + 1 < len(events):
        events[index], events[index + 1] = events[index + 1], events[index]
    elif how == "nonsense":
        events[index] = rng.choice([[], "take", 7, None, {"type": "take"}, {"seat": 0}])
    return bad


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(LOGS) - 1), st.floats(0, 1), st.sampled_from(MUTATIONS), st.randoms())
def test_a_tampered_event_is_rejected_from_there_on_or_replays_to_the_claimed_result(
    which, where, how, rng
):
    log = LOGS[which]
    index = min(int(where * len(log["events"])), len(log["events"]) - 1)
    bad = mutate(log, index, how, rng)
    try:
        outcome = verify(bad)
    except LogError as error:
        # Every event before the tampered one is as the engine wrote it: none is blamed.
        assert error.index is None or error.index >= index, error
        return
    # Accepted (a change that changes nothing): replay confirmed the claimed result exactly.
    assert outcome.to_result() == log["result"]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, len(LOGS) - 1), st.integers(0, 3), st.integers(-5, 5))
def test_a_tampered_result_is_rejected(which, seat, delta):
    bad = copy.deepcopy(LOGS[which])
    scores = bad["result"]["scores"]
    assume(seat < len(scores) and delta != 0)
    scores[seat] += delta
    with pytest.raises(ResultMismatchError):
        verify(bad)
