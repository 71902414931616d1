"""Names for people, not slugs: `{{ "deep-vents"|game_title }}` reads "Deep Vents"."""

from django import template

from engines.registry import GAMES, get_game, title_of

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
