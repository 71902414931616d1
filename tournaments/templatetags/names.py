"""Names for people, not slugs: `{{ "deep-vents"|game_title }}` reads "Deep Vents"; lists
of people sorted as they expect (`by_name`)."""

from collections.abc import Iterable
from typing import Any

from django import template

from engines.registry import GAMES, get_game, title_of
from players.names import sort_key

register = template.Library()


@register.filter
def game_title(game_id: str) -> str:
    """The game's title, or the id itself for a game this site does not know (any more)."""
    return title_of(game_id)


@register.filter
def bot_title(strategy: str, game_id: str) -> str:
    """A bot as people read it: `{{ "surface-after-3"|bot_title:"deep-dive" }}` reads
    "Surface-after-3 bot" (the engine's title); anything else is shown as it is."""
    if game_id not in GAMES:
        return strategy
    bot = get_game(game_id).strategies.get(strategy)
    return bot.title if bot is not None else strategy


@register.filter
def by_name(rows: Iterable[Any], path: str) -> list[Any]:
    """The rows sorted by the name at `path` (dotted, as in dictsort) as people expect:
    `{% for row in standings|by_name:"player.display_name" %}` puts "Émile" among the E's
    (players.names.sort_key), where dictsort put it after Z."""

    def name(row: Any) -> str:
        for attribute in path.split("."):
            row = getattr(row, attribute)
        return row

    return sorted(rows, key=lambda row: sort_key(name(row)))
