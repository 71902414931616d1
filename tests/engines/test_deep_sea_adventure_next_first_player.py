"""DSA-6: who starts the next dive, under both values of option next_first_player."""

import pytest
from deep_sea_adventure_support import new_game

from engines.deep_sea_adventure.state import DeepSeaState

CHIP = ((1, 0),)


def seat_0_then_2_return_while_seat_1_drowns(option: str) -> DeepSeaState:
    state = new_game(3, next_first_player=option)
    state.position = [2, 12, 1]
    state.carried = [[CHIP], [CHIP, CHIP], [CHIP]]
    state.turned = [True, False, True]
    state.air = 3
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # skips 1: home
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})  # air 1, stays at 12
    state.apply_action({"type": "pass", "seat": 1})
    state.apply_action({"type": "roll", "seat": 2, "dice": [1, 1]})  # air 0, home
    return state


def test_by_default_the_last_diver_to_return_starts_the_next_dive():
    state = seat_0_then_2_return_while_seat_1_drowns("last-returned")
    assert state.last_dive["returned"] == [0, 2]
    assert state.last_dive["drowned"] == [1]
    assert state.dive == 2
    assert state.seat == 2


def test_with_deepest_drowned_the_deepest_diver_left_behind_starts_the_next_dive():
    state = seat_0_then_2_return_while_seat_1_drowns("deepest-drowned")
    assert state.seat == 1


def drown_everyone(option: str) -> DeepSeaState:
    state = new_game(3, next_first_player=option)
    state.position = [4, 9, 6]
    state.carried = [[CHIP], [], []]
    state.air = 1
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # 1 move: to 5
    state.apply_action({"type": "pass", "seat": 0})
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})  # to 11
    state.apply_action({"type": "pass", "seat": 1})
    state.apply_action({"type": "roll", "seat": 2, "dice": [1, 1]})  # to 8
    state.apply_action({"type": "pass", "seat": 2})
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # air 0 on this turn
    state.apply_action({"type": "pass", "seat": 0})
    return state


@pytest.mark.parametrize("option", ["last-returned", "deepest-drowned"])
def test_when_nobody_returns_the_deepest_diver_starts_the_next_dive(option: str):
    state = drown_everyone(option)
    assert state.last_dive["returned"] == []
    assert state.seat == 1


def test_with_deepest_drowned_and_everyone_back_the_last_to_return_starts():
    state = new_game(2, next_first_player="deepest-drowned")
    state.position = [1, 2]
    state.carried = [[CHIP], [CHIP]]
    state.turned = [True, True]
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})
    state.apply_action({"type": "roll", "seat": 1, "dice": [2, 1]})
    assert state.last_dive["returned"] == [0, 1]
    assert state.seat == 1
