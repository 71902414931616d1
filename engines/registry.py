"""Which games exist. Game packages are imported only when asked for."""

from __future__ import annotations

from collections.abc import Callable
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


# The montecarlo bot's search (engines.core.bots.MonteCarloStrategy): the analysis'
# evaluator, which is built on the games, so it is loaded when asked for, as they are.
# It also reads the other seats from their decisions (`read_table`).
MONTECARLO_SEARCH = "engines.analysis.strategy:choose_by_playouts"
MONTECARLO_READING = "engines.analysis.strategy:read_table"


@cache
def montecarlo_search() -> Callable:
    module, name = MONTECARLO_SEARCH.split(":")
    return getattr(import_module(module), name)


@cache
def montecarlo_reading() -> Callable:
    module, name = MONTECARLO_READING.split(":")
    return getattr(import_module(module), name)


@cache
def get_game(game_id: str) -> Game:
    """The Game for an id, or MalformedLogError naming the known ids."""
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise MalformedLogError(
            f"unknown game {game_id!r}; known: {', '.join(GAMES)}", field="game"
        )
    module, name = GAMES[game_id].split(":")
    return getattr(import_module(module), name)()


def title_of(game_id: object, unknown: str | None = None) -> str:
    """A game's title as people read it ("Deep Vents"); for an id no game has (any more,
    or a log's malformed `game`), `unknown`, or else the id itself."""
    if isinstance(game_id, str) and game_id in GAMES:
        return get_game(game_id).title
    return str(game_id) if unknown is None else unknown
