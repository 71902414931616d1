"""DSA-7: the highest total wins; ties go to more level-4 chips, then 3, 2, 1; else shared."""

from engines.deep_sea_adventure.game import DeepSeaAdventure
from engines.deep_sea_adventure.state import DeepSeaState

GAME = DeepSeaAdventure()
CHIPS = [value for level in GAME.editions()["first"].levels for value in level]


def finished(*banked: list[tuple[int, int]]) -> DeepSeaState:
    state = GAME.new_state(GAME.ruleset(), len(banked), {"chips": CHIPS})
    state.banked = [list(chips) for chips in banked]
    return state


def test_the_highest_total_wins():
    outcome = finished([(4, 12)], [(3, 8), (2, 7)]).outcome()
    assert outcome.scores == (12, 15)
    assert outcome.winners == (1,)
    assert outcome.ranks == (2, 1)


def test_a_tie_on_points_goes_to_more_level_4_chips_before_more_level_3_chips():
    outcome = finished([(3, 10), (3, 10)], [(4, 12), (2, 4), (2, 4)]).outcome()
    assert outcome.scores == (20, 20)
    assert outcome.winners == (1,)
    assert outcome.ranks == (2, 1)


def test_a_tie_on_points_and_level_4_chips_goes_to_more_level_3_chips():
    outcome = finished([(4, 12), (3, 8)], [(4, 13), (2, 7)], [(1, 0)]).outcome()
    assert outcome.winners == (0,)
    assert outcome.ranks == (1, 2, 3)


def test_a_tie_on_points_and_every_level_is_a_shared_win():
    outcome = finished([(4, 12), (1, 3)], [(4, 15), (1, 0)], [(2, 7)]).outcome()
    assert outcome.winners == (0, 1)
    assert outcome.ranks == (1, 1, 3)
