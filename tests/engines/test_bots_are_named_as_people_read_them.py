"""Bots are named as bots ("Random bot"), from the engines: simulated games' players, and
titles for pages (issue 27)."""

import random

from engines.core.bots import bot_player_names
from engines.core.simulate import simulate_game
from engines.registry import GAMES, get_game


def test_every_bot_of_every_game_has_a_title_ending_in_bot():
    for game_id in GAMES:
        for name, strategy in get_game(game_id).strategies.items():
            assert strategy.title.endswith(" bot"), (game_id, name)
            assert strategy.title[0].isupper()


def test_a_bot_named_with_hyphens_keeps_its_words_and_is_called_a_bot():
    assert get_game("deep-dive").strategies["surface-after-3"].title == "Surface-after-3 bot"
    assert get_game("deep-dive").strategies["random"].title == "Random bot"
    assert get_game("deep-vents").strategies["montecarlo"].title == "Monte Carlo bot"


def test_a_second_bot_of_the_same_kind_at_a_table_is_numbered():
    titles = {"random": "Random bot", "grower": "Grower bot"}

    names = bot_player_names(["random", "grower", "random", "random"], titles)

    assert names == ["Random bot", "Grower bot", "Random bot 2", "Random bot 3"]


def test_a_simulated_game_names_its_players_after_their_bots():
    game = get_game("deep-dive")
    log = simulate_game(
        game, game.ruleset({}), ["random", "surface-after-3", "random"], random.Random(1)
    )

    assert [p["name"] for p in log["players"]] == [
        "Random bot",
        "Surface-after-3 bot",
        "Random bot 2",
    ]
    assert [p["strategy"] for p in log["players"]] == ["random", "surface-after-3", "random"]
