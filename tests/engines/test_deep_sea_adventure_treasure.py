"""Step 4 of a turn: pick up, drop on a blank, or do nothing; stacks move as one chip."""

import pytest
from deep_sea_adventure_support import new_game

from engines.core.errors import IllegalEventError
from engines.deep_sea_adventure.game import DeepSeaAdventure

GAME = DeepSeaAdventure()
CHIPS = [value for level in GAME.editions()["first"].levels for value in level]


def test_picking_up_takes_the_chip_and_leaves_a_blank():
    state = new_game()
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 1]})
    state.apply_action({"type": "pick", "seat": 0})
    assert state.carried[0] == [((1, 1),)]  # space 3 holds the third level-1 value
    assert state.path[2] is None


def test_a_stack_is_picked_up_whole_and_weighs_one_chip_when_breathing():
    state = new_game()
    stack = ((4, 12), (4, 13), (3, 9))
    state.path[2] = stack
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 1]})
    state.apply_action({"type": "pick", "seat": 0})
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})
    state.apply_action({"type": "pass", "seat": 1})
    assert state.carried[0] == [stack]
    assert state.air == 24


def test_a_blank_chip_cannot_be_picked_up():
    state = new_game()
    state.path[1] = None
    state.carried[0] = [((1, 0),)]
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 1]})  # 3 - 1 carried
    with pytest.raises(IllegalEventError, match=r"cannot pick up a blank chip \(space 2\)"):
        state.apply_action({"type": "pick", "seat": 0})


def test_dropping_puts_the_chosen_carried_chip_on_the_blank():
    state = new_game()
    state.path[2] = None
    state.carried[0] = [((2, 4),), ((1, 0),)]
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 3]})  # 5 - 2 carried
    state.apply_action({"type": "drop", "seat": 0, "chip": 1})
    assert state.path[2] == ((1, 0),)
    assert state.carried[0] == [((2, 4),)]


def test_dropping_on_a_treasure_chip_is_rejected():
    state = new_game()
    state.carried[0] = [((2, 4),)]
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 2]})
    with pytest.raises(IllegalEventError, match="only on a blank chip"):
        state.apply_action({"type": "drop", "seat": 0, "chip": 0})


def test_dropping_a_chip_the_diver_does_not_carry_is_rejected():
    state = new_game()
    state.path[2] = None
    state.carried[0] = [((2, 4),)]
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 2]})
    with pytest.raises(IllegalEventError, match="there is no chip 1"):
        state.apply_action({"type": "drop", "seat": 0, "chip": 1})


def test_the_treasure_step_is_skipped_when_doing_nothing_is_the_only_choice():
    state = new_game()
    state.path[3] = None  # an empty-handed diver on a blank has nothing to decide
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 2]})
    assert state.seat == 1
    with pytest.raises(
        IllegalEventError,
        match=r"seat 2 must roll the dice first; a pass cannot come now \[DSA-2\]",
    ):
        state.apply_action({"type": "pass", "seat": 1})
