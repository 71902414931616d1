"""Deep Vents replays a grow through a fast path (issue 25): the replay loop checks the
common grow in one test (the next hex, its own seat, nothing else named, below the bound
the edition data gives: HexType.plain_grow_below) instead of calling its handler. Over bot
games, intact and corrupted, it answers as the slow way does: the generic loop through
every event's handler (State.apply_events), facts, detail facts, snapshot and errors alike;
and adjacency and activation order (DV-4) and eliminations (DV-8), worked out plainly
here, hold after every event."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from deep_vents_support import lay_out, new_state, start_activation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from log_corruption import corrupted

from engines.core.errors import LogError
from engines.core.game import State
from engines.core.replay import replay
from engines.core.simulate import simulate_game, table_strategies
from engines.deep_vents.board import neighbour_coords, order_rank
from engines.deep_vents.state import DeepVentsState
from engines.registry import get_game

GAME = get_game("deep-vents")
FAST_BOTS = ["random", "grower", "attacker", "turtle"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def logs(draw: st.DrawFn) -> dict[str, Any]:
    """A bot game's log, now and then with one event changed (kept within the schema's
    reach: the state checks every event itself, Game.checks_event_shapes)."""
    players = draw(st.integers(2, 4))
    ruleset = GAME.ruleset(
        {
            "name": draw(st.sampled_from(["starting-bid", "standard"])),
            "options": {"row_size": draw(st.sampled_from([6, 5]))},
        }
    )
    bots = draw(st.lists(st.sampled_from(FAST_BOTS), min_size=players, max_size=players))
    rng = random.Random(draw(st.integers(0, 10**6)))
    log = simulate_game(GAME, ruleset, table_strategies(GAME, players, bots, rng), rng)
    if draw(st.booleans()):
        return corrupted(log, random.Random(draw(st.integers(0, 10**6))))
    return log


def answer(log: dict[str, Any], generic: bool, detail: bool) -> Any:
    """Facts, scores and the final snapshot, or the error a scorekeeper reads."""
    state = GAME.new_state(GAME.ruleset(log.get("ruleset")), len(log["players"]), log["setup"])
    state.facts, state.detail_facts = [], detail
    try:
        if generic:
            State.apply_events(state, log["events"])
        else:
            state.apply_events(log["events"])
    except LogError as error:
        return error.to_dict()
    scores = state.outcome().scores if state.is_terminal() else None
    return state.facts, scores, state.snapshot()


@SETTINGS
@given(logs(), st.booleans())
def test_the_fast_loop_answers_as_every_events_handler_does(log, detail):
    assert answer(log, generic=False, detail=detail) == answer(log, generic=True, detail=detail)


def check_against_the_plain_rules(state: DeepVentsState, event: Any) -> None:
    """Adjacency and activation order (DV-4) and eliminations (DV-8), worked out plainly (a
    finished game's tiles have let go of one another: no adjacency then)."""
    for player in state.players if not state.is_terminal() else ():
        hexes = player.hexes
        for at, tile in hexes.items():
            plain = [hexes[c] for c in neighbour_coords(at) if c in hexes]
            assert sorted(map(id, tile.neighbours)) == sorted(map(id, plain))
    if event.get("type") == "place":
        live = [t for t in state.players[state.active].hexes.values() if not t.decimated]
        assert state.activation == sorted(live, key=lambda t: order_rank(t.at))
    if event.get("type") == "end":
        for player in state.players:
            if player.tokens >= state.edition.eliminated_at:
                assert player.eliminated_turn is not None
        in_play = [p for p in state.players if p.eliminated_turn is None]
        assert len(in_play) >= 2 or state.termination == "elimination"


@SETTINGS
@given(logs())
def test_adjacency_order_and_eliminations_match_the_plain_rules_after_every_event(log):
    state = GAME.new_state(GAME.ruleset(log.get("ruleset")), len(log["players"]), log["setup"])
    events = log["events"]
    with contextlib.suppress(LogError):  # a corrupted log: checked as far as it replays
        state.apply_events(events, lambda index, s: check_against_the_plain_rules(s, events[index]))


def first_hex_table(hex_id: str, archaea: int = 0, decimated: bool = False) -> DeepVentsState:
    """Seat 0 activating its Deep Vent and `hex_id` at (0, -1), first in the order (DV-4)."""
    state = new_state(players=2)
    tile = lay_out(state, 0, [(hex_id, (0, -1))])[(0, -1)]
    tile.archaea = archaea
    start_activation(state, 0)
    tile.decimated = decimated  # flipped this turn, after the order was set (DV-13)
    return state


def through(state: DeepVentsState, events: list[dict[str, Any]], loop: bool) -> Any:
    """The table after `events`, or the error a log of them gets, by the replay loop (in one
    call, as a verification runs it) or by each event's handler in turn."""
    try:
        if loop:
            state.apply_events(events)
        else:
            for index, event in enumerate(events):
                try:
                    state.apply_action(event)
                except LogError as error:
                    raise error.at(index, event.get("seat")) from None
    except LogError as error:
        return error.to_dict()
    return state.snapshot()


GROW = {"type": "grow", "seat": 0, "hex": [0, -1]}
# Every test of the fast path failing in turn (the check each example stands for): the
# handler decides, as ever.
STEPPING_ASIDE = [
    ("undersea-volcano", 5, False, {}, "DV-9"),  # below plain_grow_below: bound to trigger
    ("undersea-volcano", 4, False, {}, None),  # not yet: grows
    ("gulper-eel", 0, False, {}, "DV-5"),  # plain_grow_below -1: names the hex it grows from
    ("porous-rock", 0, True, {}, "DV-4"),  # not decimated: flipped this turn (DV-13)
    ("porous-rock", 0, False, {"from": [0, 0]}, None),  # three keys: names another hex
    ("porous-rock", 0, False, {"hex": [0.0, -1]}, "DV-4"),  # integers
    ("porous-rock", 0, False, {"seat": False}, None),  # the seat an int (False == 0)
    ("porous-rock", 0, False, {"hex": [0, 0]}, "DV-4"),  # the hex at the order's position
    ("porous-rock", 0, False, {"seat": 1}, "DV-6"),  # the decider's seat (DV-16)
    ("porous-rock", 0, False, {"hex": (0, -1)}, "DV-4"),  # a list, as JSON reads an array
    ("porous-rock", 0, False, {"hex": [0, -1, 0]}, "DV-4"),  # a pair
    ("porous-rock", 2, False, {"type": "trigger"}, None),  # a grow: this collects (DV-6)
]


@pytest.mark.parametrize(("hex_id", "archaea", "decimated", "changed", "rule"), STEPPING_ASIDE)
def test_a_grow_the_fast_path_cannot_prove_gets_its_handlers_answer(
    hex_id, archaea, decimated, changed, rule
):
    events = [{**GROW, **changed}]
    fast = through(first_hex_table(hex_id, archaea, decimated), events, loop=True)
    assert fast == through(first_hex_table(hex_id, archaea, decimated), events, loop=False)
    assert (fast.get("rule") if "rule" in fast else None) == rule


def test_a_grow_after_the_last_hex_of_the_order_is_refused_dv_6():
    """The fast path checks the order's position is within it (DV-6: next is end)."""
    events = [GROW, {**GROW, "hex": [0, 0]}, {**GROW, "hex": [0, 0]}]
    fast = through(first_hex_table("porous-rock"), events, loop=True)
    assert fast == through(first_hex_table("porous-rock"), events, loop=False)
    assert (fast["index"], fast["rule"]) == (2, "DV-6")


def test_a_grow_after_a_trigger_reads_the_order_again_dv_6():
    """The fast path reads the activation order's position as the handler before it left it:
    the Deep Vent grows after the hex before it triggered, and a second trigger of that hex
    (a repetition, DV-6) or a grow of it is answered as the handlers do."""
    for tail in ([], [GROW], [{**GROW, "type": "trigger"}]):
        events = [{**GROW, "type": "trigger"}, *tail, {**GROW, "hex": [0, 0]}]
        fast = through(first_hex_table("porous-rock", 2), events, loop=True)
        assert fast == through(first_hex_table("porous-rock", 2), events, loop=False)


def test_the_next_turns_grow_reads_its_own_players_order_dv_4():
    """The fast path reads the activation order a placement set for the next player (DV-4),
    not the last one: both seats hold a Porous Rock at the same cell, and the second seat's
    grow of it, in the same call as the first seat's turn, grows the second seat's hex."""

    def table() -> DeepVentsState:
        state = first_hex_table("porous-rock")
        lay_out(state, 1, [("porous-rock", (0, -1))])
        return state

    events = [
        GROW,
        {**GROW, "hex": [0, 0]},
        {"type": "end", "seat": 0},
        {"type": "take", "seat": 1, "position": 1},
        {"type": "place", "seat": 1, "hex": [1, 0]},
        {**GROW, "seat": 1},
    ]
    fast = through(table(), events, loop=True)
    assert fast == through(table(), events, loop=False)
    assert [p["hexes"][0]["archaea"] for p in fast["players"]] == [1, 1]


def test_a_grow_whose_seat_is_not_an_integer_gets_the_schemas_error_dv_16():
    """A seat of false equals seat 0 but is no seat number: the fast path leaves it to the
    handler, which has the whole log checked by the schema (DeepVentsState._unproven)."""
    log = simulate_game(
        GAME,
        GAME.ruleset({"name": "standard"}),
        table_strategies(GAME, 2, ["grower", "grower"], random.Random(3)),
        random.Random(3),
    )
    index = next(
        i
        for i, event in enumerate(log["events"])
        if event == {"type": "grow", "seat": 0, "hex": [0, 0]}
    )
    log["events"][index]["seat"] = False
    with pytest.raises(LogError) as refused:
        replay(log)
    assert (refused.value.index, refused.value.field, refused.value.rule) == (
        index,
        f"events.{index}.seat",
        "DV-16",
    )


@pytest.mark.parametrize("missing", ["type", "seat", "hex"])
def test_a_grow_lacking_a_key_gets_its_handlers_answer(missing):
    """Three keys, one of them not type, seat or hex: the handler answers."""
    event = {**{k: v for k, v in GROW.items() if k != missing}, "from": [0, 0]}
    fast = through(first_hex_table("porous-rock"), [event], loop=True)
    assert fast == through(first_hex_table("porous-rock"), [event], loop=False)
    assert "message" in fast
