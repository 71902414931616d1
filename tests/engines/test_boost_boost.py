"""B-3 (option boost): one extra air, then all three boost dice are summed."""

import pytest
from deep_sea_adventure_support import new_boost_game

from engines.core.errors import IllegalEventError


def test_with_boost_alone_a_boost_costs_one_air_and_sums_all_three_dice():
    state = new_boost_game("boost-only")
    assert {event["type"] for event in state.legal_actions()} == {"boost", "swim"}
    state.apply_action({"type": "boost", "seat": 0})
    assert state.air == 24
    state.apply_action({"type": "roll", "seat": 0, "dice": [3, 3, 2]})
    assert state.position[0] == 8
    assert state.stage == "treasure"


def test_a_boost_comes_on_top_of_breathing_and_the_carried_chips_still_slow_the_diver():
    state = new_boost_game("boost-only")
    state.position = [6, 0]
    state.carried[0] = [((1, 0),), ((1, 1),)]
    state.air = 20  # seat 0 breathes before its next turn
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})
    state.apply_action({"type": "pass", "seat": 0})
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})
    state.apply_action({"type": "pass", "seat": 1})
    assert state.air == 18
    state.apply_action({"type": "turn", "seat": 0})
    state.apply_action({"type": "boost", "seat": 0})
    assert state.air == 17
    state.apply_action({"type": "roll", "seat": 0, "dice": [0, 3, 1]})  # 4 - 2 carried
    assert state.position[0] == 4


def test_a_boost_that_empties_the_tank_makes_this_the_last_turn_of_the_dive():
    state = new_boost_game("boost-only")
    state.air = 1
    state.apply_action({"type": "boost", "seat": 0})
    assert state.air == 0 and state.last_turn
    state.apply_action({"type": "roll", "seat": 0, "dice": [0, 1, 1]})
    state.apply_action({"type": "pass", "seat": 0})
    assert state.dive == 2


def test_a_boost_is_rejected_when_the_option_is_off():
    state = new_boost_game("choose-two-only")
    with pytest.raises(IllegalEventError, match=r"option boost is off\) \[B-3\]"):
        state.apply_action({"type": "boost", "seat": 0})


def test_a_second_boost_in_one_turn_is_rejected():
    state = new_boost_game("boost-only")
    state.apply_action({"type": "boost", "seat": 0})
    with pytest.raises(IllegalEventError, match=r"already declared a boost this turn \[B-3\]"):
        state.apply_action({"type": "boost", "seat": 0})


def test_with_both_rules_a_boosted_roll_is_summed_and_an_ordinary_one_is_chosen_from():
    state = new_boost_game("standard")
    state.apply_action({"type": "boost", "seat": 0})
    state.apply_action({"type": "roll", "seat": 0, "dice": [3, 1, 2]})
    assert state.position[0] == 6
    state.apply_action({"type": "pass", "seat": 0})
    state.apply_action({"type": "swim", "seat": 1})
    state.apply_action({"type": "roll", "seat": 1, "dice": [3, 1, 2]})
    assert state.stage == "choose"
    state.apply_action({"type": "choose", "seat": 1, "dice": [1, 2]})
    assert state.position[1] == 3
