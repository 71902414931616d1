"""Rounds and the starting player (DD-5, DD-6)."""

import pytest
from deep_dive_support import play

from engines import IllegalEventError
from engines.deep_dive.events import dive, shark, stay, surface
from engines.deep_dive.events import open_shells as opened


def round_lost_to_the_shark(players, starting_seat):
    """Every diver dives red and the starting player's shark bites red: the round is over."""
    order = [(starting_seat + i) % players for i in range(players)]
    return [*(dive(seat, "red") for seat in order), shark(starting_seat, "red")]


def test_round_ends_when_no_diver_is_left_in_the_water_dd5():
    state = play(3, *round_lost_to_the_shark(3, 0))
    snapshot = state.snapshot()
    assert snapshot["round"] == 2
    assert snapshot["pass"] == 1
    assert [d["section"] for d in snapshot["divers"]] == [None, None, None]


def test_starting_player_moves_one_seat_clockwise_each_round_dd5():
    state = play(3, *round_lost_to_the_shark(3, 0))
    assert state.snapshot()["starting_seat"] == 1
    assert state.current_seat() == 1  # the new starting player dives first
    state.apply_action(dive(1, "blue"))
    state.apply_action(dive(2, "blue"))
    state.apply_action(dive(0, "blue"))
    assert state.current_seat() == 1  # and rolls the shark
    state.apply_action(shark(1, "blue"))
    state.apply_action(dive(2, "red"))
    assert state.snapshot()["starting_seat"] == 2


def test_starting_player_wraps_around_to_seat_zero_dd5():
    state = play(3, *round_lost_to_the_shark(3, 0), *round_lost_to_the_shark(3, 1))
    state.apply_action(dive(2, "red"))
    state.apply_action(dive(0, "red"))
    state.apply_action(dive(1, "red"))
    state.apply_action(shark(2, "red"))
    assert state.snapshot()["round"] == 4
    assert state.snapshot()["starting_seat"] == 0


def test_round_goes_on_while_one_diver_stays_dd5():
    state = play(
        2,
        dive(0, "blue"), dive(1, "red"), shark(0, "green"),
        surface(0), opened(0, 3, 0, 0), stay(1),
    )  # fmt: skip
    assert state.snapshot()["round"] == 1
    assert state.snapshot()["pass"] == 2
    with pytest.raises(IllegalEventError, match="seat 2 must roll the colour die"):
        state.apply_action(dive(0, "red"))
