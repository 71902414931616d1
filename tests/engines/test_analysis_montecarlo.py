"""The `montecarlo` strategy: registered with every game's bots, plays legal moves, and is
reproducible for a seed."""

import random

import pytest

from engines.analysis.strategy import MonteCarloStrategy
from engines.core.replay import verify
from engines.core.simulate import simulate_game
from engines.registry import GAMES, get_game


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_the_montecarlo_bot(game_id):
    strategy = get_game(game_id).strategies["montecarlo"]
    assert issubclass(strategy, MonteCarloStrategy) and strategy.game_id == game_id


@pytest.mark.parametrize(
    ("game_id", "others"),
    [
        ("deep-sea-adventure", ["grab-2-then-turn"]),
        ("deep-sea-adventure-boost", ["always-boost"]),
        ("deep-dive", ["risk-aware"]),
    ],
)
def test_a_montecarlo_game_verifies_and_repeats_for_its_seed(game_id, others):
    game = get_game(game_id)
    table = ["montecarlo", *others]
    log = simulate_game(game, game.ruleset({}), table, random.Random(11))
    assert verify(log).scores == tuple(log["result"]["scores"])
    again = simulate_game(game, game.ruleset({}), table, random.Random(11))
    assert again["events"] == log["events"]


def test_the_montecarlo_diver_picks_up_while_empty_handed_so_dives_end():
    game = get_game("deep-sea-adventure")
    log = simulate_game(game, game.ruleset({}), ["montecarlo", "montecarlo"], random.Random(4))
    assert verify(log).scores
