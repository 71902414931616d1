"""Surfacing and opening shells (DD-3, DD-4)."""

import pytest
from deep_dive_support import play

from engines import IllegalEventError, replay
from engines.core.schema import FORMAT
from engines.deep_dive.events import dive, shark, stay, surface
from engines.deep_dive.events import open_shells as opened


def stayed_passes(players, passes):
    """Every diver dives purple, the shark bites red, everyone stays: 3 shells each a pass."""
    one_pass = [
        *(dive(s, "purple") for s in range(players)),
        shark(0, "red"),
        *(stay(s) for s in range(players)),
    ]
    return one_pass * passes


def test_surfacing_opens_every_shell_white_kept_black_aside_empty_removed_dd4():
    state = play(2, dive(0, "purple"), dive(1, "red"), shark(0, "green"), surface(0))
    assert state.is_chance_node()
    state.apply_action(opened(0, 1, 1, 1))
    assert state.white_pearls == [1, 0]
    assert state.black_pearls == 1
    assert state.empty_removed == 1
    assert state.held == [0, 1]
    assert state.unopened == {"white": 19, "black": 5, "empty": 11}


def test_divers_decide_from_the_starting_player_clockwise_dd3():
    state = play(3, dive(0, "red"), dive(1, "red"), dive(2, "red"), shark(0, "blue"))
    assert state.current_seat() == 0
    state.apply_action(stay(0))
    assert state.current_seat() == 1
    with pytest.raises(IllegalEventError, match="seat 2 must surface or stay"):
        state.apply_action(surface(2))


def test_surfaced_diver_opens_before_the_next_diver_decides_dd3():
    state = play(3, dive(0, "red"), dive(1, "red"), dive(2, "red"), shark(0, "blue"), surface(0))
    with pytest.raises(IllegalEventError, match="seat 1 must open their shells"):
        state.apply_action(stay(1))


def test_opening_must_list_exactly_the_shells_held_dd4():
    state = play(2, dive(0, "purple"), dive(1, "red"), shark(0, "green"), surface(0))
    with pytest.raises(IllegalEventError) as caught:
        state.apply_action(opened(0, 2, 0, 0))
    assert caught.value.message == (
        "seat 1 opens 3 shells, but the event lists 2 white + 0 black + 0 empty"
    )
    assert caught.value.rule == "DD-4"


def test_more_white_pearls_than_remain_unopened_are_rejected_dd4():
    # 2 players: 20 white pearls in play (DD-1); both divers come to hold 12 shells.
    state = play(
        2, *stayed_passes(2, 3), dive(0, "purple"), dive(1, "purple"), shark(0, "red"),
        surface(0), opened(0, 12, 0, 0), surface(1),
    )  # fmt: skip
    with pytest.raises(IllegalEventError) as caught:
        state.apply_action(opened(1, 12, 0, 0))
    assert caught.value.message == (
        "cannot open 12 white pearls: only 8 remain unopened "
        "(20 in play for 2 players, 12 already opened)"
    )


def test_a_seventh_black_pearl_is_rejected_with_event_index_and_seat_dd4():
    events = [
        dive(0, "purple"), dive(1, "purple"), dive(2, "purple"), shark(0, "red"),
        surface(0), opened(0, 0, 3, 0),
        surface(1), opened(1, 0, 3, 0),
        stay(2), opened(2, 1, 1, 1),  # the game has ended: seat 2 must open (DD-5)
    ]  # fmt: skip
    log = {
        "format": FORMAT,
        "game": "deep-dive",
        "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
        "setup": {},
        "events": events,
    }
    with pytest.raises(IllegalEventError) as caught:
        replay(log)
    assert str(caught.value) == (
        "event 9 (seat 3): no black pearl can be opened: none remains unopened "
        "(6 in play for 3 players, 6 already opened) [DD-4]"
    )
