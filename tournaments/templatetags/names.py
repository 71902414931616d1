"""Names for people, not slugs: `{{ "deep-vents"|game_title }}` reads "Deep Vents"."""

from django import template

from engines.registry import GAMES, get_game

register = template.Library()


@register.filter
def game_title(game_id: str) -> str:
    """The game's title, or the id itself for a game this site does not know (any more)."""
    return get_game(game_id).title if game_id in GAMES else game_id
