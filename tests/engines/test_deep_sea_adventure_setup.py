"""DSA-1: the setup lists the dealt chip values in path order; each must fit its level."""

import random

import pytest

from engines.core.errors import MalformedLogError, UnsupportedRulesetError
from engines.deep_sea_adventure.game import DeepSeaAdventure

GAME = DeepSeaAdventure()
LEVELS = GAME.editions()["first"].levels
CHIPS = [value for level in LEVELS for value in level]


def start(chips: list[int]):
    return GAME.new_state(GAME.ruleset(), 2, {"chips": chips})


def test_a_dealt_setup_lays_each_level_out_from_the_submarine_outwards():
    chips = GAME.new_setup(GAME.ruleset(), 4, random.Random(3))["chips"]
    state = start(chips)
    assert [item[0][0] for item in state.path] == [1] * 8 + [2] * 8 + [3] * 8 + [4] * 8
    assert sorted(chips[:8]) == sorted(LEVELS[0])


def test_a_value_that_no_chip_of_its_level_has_is_rejected():
    chips = list(CHIPS)
    chips[3], chips[8] = chips[8], chips[3]  # a level-2 value among the level-1 chips
    with pytest.raises(MalformedLogError) as caught:
        start(chips)
    assert (
        str(caught.value) == "setup.chips[3]: 4 is not a level-1 chip value (level 1: 0-3) [DSA-1]"
    )


def test_values_possible_for_the_level_but_not_the_editions_multiset_are_rejected():
    chips = list(CHIPS)
    chips[0] = 3  # three chips worth 3 and only one worth 0
    with pytest.raises(MalformedLogError, match=r"level-1 values .* are not the edition's"):
        start(chips)


def test_a_path_of_the_wrong_length_is_rejected():
    with pytest.raises(MalformedLogError, match="31 chip values given; the path has 32 chips"):
        start(CHIPS[:31])


def test_an_unknown_next_first_player_option_is_refused_citing_dsa6():
    with pytest.raises(UnsupportedRulesetError, match=r"\[DSA-6\]"):
        GAME.ruleset({"options": {"next_first_player": "youngest"}})
