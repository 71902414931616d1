"""The `montecarlo` strategy: listed among every game's own bots, plays legal moves, and is
reproducible for a seed. Whole games are played at the small search budget every test
gives it (tests/conftest.py): how well the bot plays is benchmarks/bot_match.py's question."""

import random
from importlib import import_module

import pytest

from engines.core.bots import MonteCarloStrategy
from engines.core.replay import verify
from engines.core.simulate import simulate_game
from engines.registry import GAMES, get_game


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_the_montecarlo_bot(game_id):
    strategy = get_game(game_id).strategies["montecarlo"]
    assert issubclass(strategy, MonteCarloStrategy) and strategy.game_id == game_id


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_game_class_lists_the_montecarlo_bot_itself_and_its_bots_module_is_untouched(
    game_id,
):
    module, name = GAMES[game_id].split(":")
    game_class = getattr(import_module(module), name)
    get_game(game_id)  # loading through the registry changes nothing

    assert game_class.strategies["montecarlo"].game_id == game_id
    bots = import_module(module.replace(".game", ".bots"))
    for mapping in vars(bots).values():
        if isinstance(mapping, dict) and "random" in mapping:
            assert "montecarlo" not in mapping


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
