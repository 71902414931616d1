"""A game's per-seat summary as its engine labels it (Game.seat_columns): the pages show
the columns the engine names, so no page knows which game has a turn order or a bid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from engines.core.game import SeatColumn
from engines.registry import GAMES, get_game

register = template.Library()


@register.filter
def seat_columns(game_id: str) -> tuple[SeatColumn, ...]:
    """`{% for column in log.game_type|seat_columns %}`: the game's summary columns, none
    for a game this site does not know (any more)."""
    return get_game(game_id).seat_columns if game_id in GAMES else ()


@register.filter
def summary_value(summary: Mapping[str, Any] | None, key: str) -> Any:
    """`{{ seat.summary|summary_value:column.key }}`: None where the seat has no value."""
    return (summary or {}).get(key)
