"""Deep Dive bots: random, surface after k shells, and the shark-odds player."""

import random
from fractions import Fraction

from engines import get_game
from engines.deep_dive.events import dive, shark, stay, surface
from engines.deep_dive.events import open_shells as opened

GAME = get_game("deep-dive")


def deciding_with(held_passes):
    """A 2-player state where seat 0 decides holding 3 shells per purple pass."""
    state = GAME.new_state(GAME.ruleset(), 2, {})
    for number in range(held_passes):
        for event in (dive(0, "purple"), dive(1, "red"), shark(0, "green")):
            state.apply_action(event)
        if number < held_passes - 1:
            state.apply_action(stay(0))
            state.apply_action(stay(1))
    return state


def choice(strategy, state):
    bot = GAME.strategies[strategy]()
    return bot.choose(state, state.legal_actions(), random.Random(0))["type"]


def test_game_offers_at_least_three_named_strategies():
    assert {"random", "surface-after-2", "surface-after-3", "risk-aware"} <= set(GAME.strategies)


def first_decision(colour):
    """A 2-player state where seat 0 decides after one dive into `colour` (not orange)."""
    state = GAME.new_state(GAME.ruleset(), 2, {})
    for event in (dive(0, colour), dive(1, "red"), shark(0, "orange")):
        state.apply_action(event)
    return state


def test_surface_after_k_surfaces_once_holding_k_shells():
    assert choice("surface-after-2", deciding_with(1)) == "surface"
    assert choice("surface-after-3", deciding_with(1)) == "surface"


def test_surface_after_2_stays_with_one_shell():
    assert choice("surface-after-2", first_decision("red")) == "stay"


def test_surface_after_3_stays_with_two_shells():
    state = first_decision("green")
    assert choice("surface-after-3", state) == "stay"
    assert choice("surface-after-2", state) == "surface"


def test_shark_hits_a_freshly_rolled_section_one_time_in_six():
    assert GAME.editions()["first"].shark_hit_probability() == Fraction(1, 6)


def test_risk_aware_stays_with_nine_shells_and_surfaces_with_twelve():
    # Staying keeps 5/6 x (held + 2 expected): 5/6 x 11 > 9, but 5/6 x 14 < 12.
    assert choice("risk-aware", deciding_with(3)) == "stay"
    assert choice("risk-aware", deciding_with(4)) == "surface"


def test_risk_aware_stays_once_the_game_is_ending():
    state = GAME.new_state(GAME.ruleset(), 3, {})
    for event in (
        dive(0, "purple"), dive(1, "purple"), dive(2, "purple"), shark(0, "red"),
        surface(0), opened(0, 0, 3, 0), surface(1), opened(1, 0, 1, 2),
    ):  # fmt: skip
        state.apply_action(event)
    assert state.ending
    assert choice("risk-aware", state) == "stay"


def test_random_bot_picks_both_decisions_over_many_draws():
    state = deciding_with(1)
    bot = GAME.strategies["random"]()
    rng = random.Random(1)
    picks = {bot.choose(state, state.legal_actions(), rng)["type"] for _ in range(50)}
    assert picks == {"surface", "stay"}
