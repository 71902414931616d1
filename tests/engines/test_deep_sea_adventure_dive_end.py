"""DSA-5 and DSA-8: drowned treasure in stacks, closing gaps, odd ends of a dive."""

import pytest
from deep_sea_adventure_support import new_game

from engines.core.errors import IllegalEventError
from engines.deep_sea_adventure.game import DeepSeaAdventure
from engines.deep_sea_adventure.state import DeepSeaState

GAME = DeepSeaAdventure()
CHIPS = [value for level in GAME.editions()["first"].levels for value in level]
A, B, C, D, E, F, G = ((1, 0),), ((1, 1),), ((2, 4),), ((2, 5),), ((3, 8),), ((3, 9),), ((4, 15),)


def three_divers_drown() -> DeepSeaState:
    """Seat 1 at space 5 (nearest), seat 0 at 10, seat 2 at 20; nobody moves."""
    state = new_game(3)
    state.position = [10, 5, 20]
    state.carried = [[A, B], [C, D, E, F], [G]]
    for space in (5, 10, 20):
        state.path[space - 1] = None
    state.air = 4
    for seat in (0, 1):  # 2 - chips carried: nobody moves; seat 1 empties the tank
        state.apply_action({"type": "roll", "seat": seat, "dice": [1, 1]})
        state.apply_action({"type": "pass", "seat": seat})
    return state


def test_drowned_chips_are_stacked_by_three_nearest_diver_first_mixing_divers():
    state = three_divers_drown()
    assert state.dive == 2
    assert state.path[-3:] == [C + D + E, F + A + B, G]


def test_blanks_are_removed_and_the_gaps_closed():
    state = three_divers_drown()
    assert None not in state.path
    assert len(state.path) == 32 - 3 + 3


def test_a_drowned_diver_may_give_its_stacking_order_right_after_the_dive():
    state = three_divers_drown()
    state.apply_action({"type": "stack", "seat": 1, "order": [3, 0, 1, 2]})
    assert state.path[-3:] == [F + C + D, E + A + B, G]


def test_a_stacking_order_after_the_next_dive_began_is_rejected():
    state = three_divers_drown()
    state.apply_action({"type": "roll", "seat": state.seat, "dice": [1, 1]})
    with pytest.raises(IllegalEventError, match=r"right after a dive ends.*\[DSA-5\]"):
        state.apply_action({"type": "stack", "seat": 1, "order": [3, 0, 1, 2]})


def test_a_stacking_order_must_list_each_carried_chip_once():
    state = three_divers_drown()
    with pytest.raises(IllegalEventError, match=r"each of the 4 carried chips once"):
        state.apply_action({"type": "stack", "seat": 1, "order": [0, 0, 1, 2]})


def test_a_dive_where_nobody_can_reach_treasure_ends_as_if_the_air_ran_out():
    state = new_game()
    state.path[2:] = [None] * 30  # treasure only behind both divers, who carry nothing
    state.position = [4, 5]
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})
    assert state.dive == 2
    assert state.last_dive["drowned"] == [0, 1]
    assert len(state.path) == 2


def test_the_game_ends_when_every_chip_has_been_banked_before_a_dive():
    state = new_game()
    state.path = [None, None, ((4, 15),)] + [None] * 29  # the only treasure left: space 3
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # to space 2
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})  # 1, skips 2, 3
    state.apply_action({"type": "pick", "seat": 1})
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # skips 3: to 5
    state.apply_action({"type": "turn", "seat": 1})
    state.apply_action({"type": "roll", "seat": 1, "dice": [2, 3]})  # home; seat 0 is stuck
    assert state.is_terminal()
    assert state.outcome().scores == (0, 15)
