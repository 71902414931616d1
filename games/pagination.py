"""Keyset (cursor) pagination of the games lists, the API's and the page's.

A page is "the next 50 games played before this moment", found by an index scan from that
moment (games_game_played_keyset): a deep page costs what the first does, where OFFSET reads
and throws away every game before it, and no page counts the whole table.
"""

from __future__ import annotations

from base64 import b64encode
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.http import HttpRequest
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request

from common.quick_numbers import floatformat

PAGE_SIZE = 50


# What the games page shows of a game (templates/games/game_list.html), besides its
# confirmation state: the log's id makes its link.
GAME_SHOWN = ("log_id", "game_type", "played_at", "source", "counts")


def shown_score(score: float) -> str:
    """A score as `floatformat` shows it (common.quick_numbers: without its Decimal)."""
    return floatformat(score, -1)


class GameCursorPagination(CursorPagination):
    """Newest first. The cursor holds a played_at (and an offset among games played at that
    same moment, which are few), never a page number."""

    ordering = ("-played_at", "-pk")
    page_size = PAGE_SIZE

    def get_ordering(self, request: Any, queryset: Any, view: Any) -> tuple[str, ...]:
        """A player's games (GameFilter.by_player) by their seats' copy of played_at, which
        games_seats_of_player reads in order: the same order and cursors (the same
        moments), a page read by the index instead of all the player's games sorted."""
        if "seat_played_at" in queryset.query.annotations:
            return ("-seat_played_at", "-pk")
        return super().get_ordering(request, queryset, view)

    @staticmethod
    def cursor_of(game: Any) -> str:
        """The cursor of the page starting after `game` (as the site's own links encode it)."""
        querystring = urlencode({"p": str(game.played_at)})
        return b64encode(querystring.encode("ascii")).decode("ascii")


def page_of_games(request: HttpRequest, games: Any) -> dict[str, Any]:
    """One page of `games` for an HTML list: the games, and relative links to the newer and
    older pages (None at either end). A cursor that is not one of ours is a 404 (NotFound)."""
    paginator = GameCursorPagination()
    listed = paginator.paginate_queryset(games, Request(request))
    return {
        "games": listed,
        "newer": relative(paginator.get_previous_link()),
        "older": relative(paginator.get_next_link()),
    }


def relative(link: str | None) -> str | None:
    if link is None:
        return None
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path
