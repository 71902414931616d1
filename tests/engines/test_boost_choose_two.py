"""B-2 (option choose_two): roll the three boost dice (B-1), move by the two chosen."""

import pytest
from deep_sea_adventure_support import new_boost_game

from engines.core.errors import IllegalEventError


def test_with_choose_two_alone_every_roll_is_three_boost_dice_and_two_are_chosen():
    state = new_boost_game("choose-two-only")
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 8
    assert all(chance == pytest.approx(1 / 8) for _, chance in outcomes)
    state.apply_action({"type": "roll", "seat": 0, "dice": [0, 3, 2]})
    assert {tuple(event["dice"]) for event in state.legal_actions()} == {(0, 3), (0, 2), (3, 2)}
    state.apply_action({"type": "choose", "seat": 0, "dice": [3, 2]})
    assert state.position[0] == 5


def test_the_chosen_dice_move_minus_the_chips_carried():
    state = new_boost_game("choose-two-only")
    state.carried[0] = [((1, 0),)]
    state.position = [4, 0]
    state.apply_action({"type": "roll", "seat": 0, "dice": [3, 3, 1]})
    state.apply_action({"type": "choose", "seat": 0, "dice": [3, 1]})
    assert state.position[0] == 7


def test_choosing_dice_that_were_not_rolled_is_rejected():
    state = new_boost_game("choose-two-only")
    state.apply_action({"type": "roll", "seat": 0, "dice": [0, 3, 2]})
    with pytest.raises(IllegalEventError, match=r"not two of the rolled \[0, 3, 2\] \[B-2\]"):
        state.apply_action({"type": "choose", "seat": 0, "dice": [3, 3]})


def test_a_face_the_boost_die_does_not_have_is_rejected():
    state = new_boost_game("choose-two-only")
    with pytest.raises(IllegalEventError, match=r"die 3 has no face 3 \(faces \[1, 2\]\) \[B-1\]"):
        state.apply_action({"type": "roll", "seat": 0, "dice": [0, 3, 3]})


def test_a_roll_of_the_two_original_dice_is_rejected_when_choose_two_is_on():
    state = new_boost_game("choose-two-only")
    with pytest.raises(IllegalEventError, match=r"lists 3 dice here"):
        state.apply_action({"type": "roll", "seat": 0, "dice": [2, 2]})


def test_with_choose_two_off_the_original_two_dice_are_rolled():
    state = new_boost_game("boost-only")
    state.apply_action({"type": "swim", "seat": 0})
    assert {tuple(event["dice"]) for event, _ in state.chance_outcomes()} == {
        (a, b) for a in (1, 2, 3) for b in (1, 2, 3)
    }
