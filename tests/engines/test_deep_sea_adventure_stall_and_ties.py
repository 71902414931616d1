"""DSA-9 (the stalled dive, settled) and DSA-10 (ties for "deepest" in DSA-6)."""

import pytest
from deep_sea_adventure_support import DIVE_GOES_ON, DROP_AND_SWIM_HOME, dsa_9_log, new_game, roll

from engines.core.errors import IllegalEventError
from engines.core.replay import replay
from engines.deep_sea_adventure.state import DeepSeaState

CHIP, TREASURE = ((1, 0),), ((4, 15),)


def turned_back_diver_swimming_home_empty_handed() -> DeepSeaState:
    """Seat 0 turned back and dropped its chip (now at space 5); it is at space 3, carrying
    nothing, with nothing between it and the submarine. Seat 1, heading down at space 8,
    carries nothing and nothing lies at or deeper than it."""
    state = new_game(2)
    state.path = [None] * 32
    state.path[4] = CHIP
    state.position = [3, 8]
    state.turned = [True, False]
    return state


def test_a_turned_back_diver_carrying_nothing_never_stalls_the_dive_dsa_9():
    state = turned_back_diver_swimming_home_empty_handed()
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # to space 1
    assert state.dive == 1
    assert state.seat == 1


def test_the_turned_back_diver_arrives_and_counts_as_returned_for_the_next_dive_dsa_9():
    state = turned_back_diver_swimming_home_empty_handed()
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # to space 1
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})  # to 10: nothing here
    assert state.dive == 1  # seat 0 is still on its way home
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # home
    # Now only seat 1 is in the water: heading down, empty-handed, nothing at or deeper.
    assert state.dive == 2
    assert state.last_dive["returned"] == [0]
    assert state.last_dive["drowned"] == [1]
    assert state.seat == 0  # DSA-6: the last diver to return starts the next dive


def test_a_dive_stalls_when_every_diver_heads_down_empty_handed_past_all_treasure_dsa_9():
    state = new_game(2)
    state.path = [None] * 32
    state.path[1] = CHIP  # space 2: shallower than both divers
    state.position = [4, 6]
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # 4 -> 5
    assert state.dive == 2
    assert state.last_dive["returned"] == []
    assert state.last_dive["drowned"] == [0, 1]


def test_treasure_at_a_divers_own_position_keeps_the_dive_going_dsa_9():
    state = new_game(2)
    state.path = [None] * 32
    state.path[6] = CHIP  # space 7
    state.position = [2, 8]
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # 2 -> 4
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})  # 8 -> 10
    assert state.dive == 1  # seat 0 at 4 still has space 7 ahead
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 1]})  # 4 -> 7
    state.apply_action({"type": "pass", "seat": 0})  # leaves it: treasure at its position
    assert state.dive == 1


def two_divers_never_leave_the_submarine(next_first_player: str) -> DeepSeaState:
    """Four divers, this dive's turn order 1, 2, 3, 0. Seats 1 and 2 turned back with
    treasure and are one move from home; seats 3 and 0 never left the submarine (every
    space was taken). The air runs out on seat 2's turn, before seats 3 and 0 move."""
    state = new_game(4, next_first_player=next_first_player)
    state.path = [None, None, TREASURE]
    state.first_seat = state.seat = 1
    state.position = [0, 2, 1, 0]
    state.turned = [False, True, True, False]
    state.carried = [[], [CHIP], [CHIP], []]
    state.air = 1  # seat 2 breathes its last at the start of its turn
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})  # 2 -> (1 taken) -> home
    state.apply_action({"type": "roll", "seat": 2, "dice": [1, 1]})  # air 0; 1 -> home
    return state


def test_a_tie_for_deepest_goes_to_the_diver_earliest_in_the_dives_turn_order_dsa_10():
    state = two_divers_never_leave_the_submarine("deepest-drowned")
    assert state.last_dive["drowned"] == [0, 3]  # both at depth 0
    # Seat 3 comes before seat 0 in this dive's order (1, 2, 3, 0); the lower seat would be 0.
    assert state.last_dive["first_next"] == 3
    assert state.dive == 2
    assert state.seat == 3


def test_the_dsa_10_tie_break_does_not_touch_the_last_returned_rule():
    state = two_divers_never_leave_the_submarine("last-returned")
    assert state.seat == 2


def test_a_diver_who_dropped_its_last_chip_swims_home_and_starts_the_next_dive_dsa_9():
    log = dsa_9_log(DROP_AND_SWIM_HOME + DIVE_GOES_ON)
    dives = []
    replay(log, on_event=lambda _, state: dives.append(state.last_dive))
    first_dive = next(dive for dive in dives if dive is not None)
    assert first_dive["returned"] == [1, 0]
    assert first_dive["first_next"] == 0


def test_a_log_that_ended_the_dive_on_a_diver_swimming_home_is_now_rejected_dsa_9():
    log = dsa_9_log(DROP_AND_SWIM_HOME + DIVE_GOES_ON)
    log["events"][len(DROP_AND_SWIM_HOME)] = roll(1, 1, 1)  # as if dive 2 had begun
    with pytest.raises(IllegalEventError, match=r"event 20 \(seat 2\).*\[DSA-3\]"):
        replay(log)
