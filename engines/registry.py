"""Which games exist. Game packages are imported only when asked for."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from engines.core.errors import MalformedLogError
from engines.core.game import Game

# game id -> "module:GameClass"
GAMES: dict[str, str] = {
    "deep-vents": "engines.deep_vents.game:DeepVents",
    "deep-sea-adventure": "engines.deep_sea_adventure.game:DeepSeaAdventure",
    "deep-sea-adventure-boost": "engines.deep_sea_adventure.game:DeepSeaAdventureBoost",
    "deep-dive": "engines.deep_dive.game:DeepDive",
}

# The game a tournament plays unless told otherwise: the site runs Deep Vents starting-bid
# tournaments (its default ruleset, DV-3). The one place the site names a game by default.
TOURNAMENT_GAME = "deep-vents"


@cache
def get_game(game_id: str) -> Game:
    """The Game for an id, or MalformedLogError naming the known ids. Its bots include the
    `montecarlo` bot, which searches with the game's own playouts: a game package knows
    nothing of the analysis built on it, so the bot joins here, where games are loaded."""
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise MalformedLogError(
            f"unknown game {game_id!r}; known: {', '.join(GAMES)}", field="game"
        )
    module, name = GAMES[game_id].split(":")
    game = getattr(import_module(module), name)()
    from engines.analysis.strategy import montecarlo_for  # the analysis loads games

    game.strategies["montecarlo"] = montecarlo_for(game_id)
    return game
