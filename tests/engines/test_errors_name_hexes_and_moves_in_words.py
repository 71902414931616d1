"""Errors reach players (the game page, the replay, a refused recording): they name hexes as
the replay does and moves as players say them, never coordinates like "[0, -1]" or an
event's type in quotes (issue 24). The API's fields (index, seat, rule) stay as they were."""

import re

import pytest
from deep_vents_support import ev, lay_out, new_state, start_activation

from engines import IllegalEventError
from engines.core.simulate import simulate
from engines.registry import get_game

COORDINATES = re.compile(r"\[-?\d+, -?\d+\]")


def refused(state, event) -> str:
    with pytest.raises(IllegalEventError) as caught:
        state.apply_action(event)
    return caught.value.message


def test_a_hex_of_two_of_a_kind_is_named_by_its_neighbour_as_the_replay_names_it():
    state = new_state()
    lay_out(state, 0, [("porous-rock", (1, 0)), ("porous-rock", (-1, 0))])
    start_activation(state, 0)

    message = refused(state, ev("grow", 0, hex=(1, 0)))

    assert message == (
        "hexes activate top-left to bottom-right: next is Porous Rock (west of Deep Vent)"
    )


def test_a_free_cell_is_named_by_the_hex_beside_it():
    state = new_state()
    lay_out(state, 0, [("porous-rock", (1, 0)), ("porous-rock", (-1, 0))])
    start_activation(state, 0)

    message = refused(state, ev("grow", 0, hex=(2, 0)))

    assert message == "seat 1 has no hex east of Porous Rock (east of Deep Vent)"
    assert not COORDINATES.search(message)


def test_a_turn_that_ends_too_soon_names_the_hex_still_to_act_and_no_coordinates():
    state = new_state()
    lay_out(state, 0, [("porous-rock", (0, -1))])
    start_activation(state, 0)

    message = refused(state, ev("end", 0))

    assert message == "the turn cannot end: Porous Rock has not been activated"
    assert state.waiting_for() == "seat 1 to grow or trigger Porous Rock"


def test_deep_dive_says_what_must_come_and_what_cannot_without_event_types():
    game = get_game("deep-dive")
    (log,) = simulate(game, game.ruleset(None), 2, 1, seed=2)
    state = game.new_state(game.ruleset(None), 2, log["setup"])
    first = log["events"][0]

    out_of_turn = refused(state, {**first, "seat": 1 - first["seat"]})
    out_of_phase = refused(state, {"type": "stay", "seat": first["seat"]})

    assert out_of_turn.endswith(f"seat {first['seat'] + 1} must roll the colour die")
    assert out_of_phase == (
        f"seat {first['seat'] + 1} must roll the colour die first; staying cannot come now"
    )
    assert "event" not in out_of_turn + out_of_phase and "'" not in out_of_phase
