"""A game named as its players know it, never by a database id: the game, the day, and
where it was played ("Deep Vents, 28 Nov 2026: Club Night · round 1 · table 2"), or who
played it when it was played at no tournament table ("Deep Vents, 3 Dec 2026: Marina,
Nemo, Coral")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import dateformat, timezone

from engines.registry import title_of
from games.services.table_desk import table_desk

if TYPE_CHECKING:
    from games.models import Game


def game_name(game: Game) -> str:
    """The game's name for pages, notices and e-mails. No query beyond its seats, when the
    game was read with select_related("log__table__round__tournament") and its seats
    prefetched; the tournament comes through the table desk (games knows no tournaments)."""
    day = dateformat.format(timezone.localtime(game.played_at), "j M Y")
    place = table_desk().place_of(game.log)
    where = str(place) if place else ", ".join(seat.name for seat in game.seats.all())
    return f"{title_of(game.game_type)}, {day}: {where}"
