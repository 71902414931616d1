"""Keyset (cursor) pagination of the games lists, the API's and the page's.

A page is "the next 50 games played before this moment", found by an index scan from that
moment (games_game_played_keyset): a deep page costs what the first does, where OFFSET reads
and throws away every game before it, and no page counts the whole table.
"""

from __future__ import annotations

import datetime
from base64 import b64encode
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.http import HttpRequest
from django_filters.constants import EMPTY_VALUES
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

from common.compiled import WINDOW, compile_once
from common.quick_numbers import floatformat
from games.filters import COUNTS, GameFilter
from games.models import Game

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

    def decode_cursor(self, request: Any) -> Cursor | None:
        """DRF's cursor, its position checked as a moment: a cursor of ours decoded but
        edited to hold anything else is a 404 naming the problem like any cursor not ours,
        where the query's filter would raise (a 500)."""
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            try:
                Game._meta.get_field("played_at").to_python(cursor.position)
            except ValidationError:
                raise NotFound(self.invalid_cursor_message) from None
        return cursor

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


def page_of_filtered_games(request: HttpRequest, filters: GameFilter) -> dict[str, Any]:
    """page_of_games for the games page's valid filters (validated): each shape of its
    query (who asks, the filters present, the page's order and where it starts) built and
    compiled once (common.compiled), each request's values bound in their places. Filtering,
    ordering and compiling it every request, and its model instances, were 3.1 to 4.7 ms of
    CPU a page at 1M games, where this is 1.8 to 1.9 (issue 25). The same games, and the
    same links, as page_of_games gives for filters.qs; asked of the ORM where nothing is
    compiled (SQLite), and for a date range (its dates reach the query as the form's
    datetimes made dates)."""
    shape = filtered_shape(request.user, filters.form.cleaned_data)
    if shape is None or connections[router.db_for_read(Game)].vendor != "postgresql":
        return page_of_games(request, filters.qs)
    values = {  # each filter's value in its slot's place (COUNTS has none: see filtered_shape)
        name: value
        for name, value in filters.form.cleaned_data.items()
        if value not in EMPTY_VALUES and name in shape[1]
    }
    if shape[0] == MEMBER:
        values["user"] = request.user.pk
    return page_of_games(request, CompiledGames(shape, values))


# Who asks, as the games they may see (games.models.visible_to): staff see every game, a
# member also their own unpublished ones (their id a slot), anyone else the published ones.
STAFF, MEMBER, ANYONE = "staff", "member", "anyone"
# The placeholders a shape is compiled with (common.compiled): values no request sends (no
# slug, choice or id has a space; ids are positive).
SLOTS = {
    "game": "slot game",
    "player": "slot player",
    "tournament": -32_125,
    "source": "slot source",
    "confirmation": "slot confirmation",
    "user": -32_124,
    "position": datetime.datetime(1903, 4, 5, 6, 7, 8, tzinfo=datetime.UTC),
}
# The columns read of a listed game, as .only(*GAME_SHOWN) loads them (in its model's order,
# which Model.from_db takes), and the filters' annotations: its confirmation state, and a
# player's seat (GameFilter.by_player).
GAME_READ = tuple(
    field.attname for field in Game._meta.concrete_fields if field.attname in {"id", *GAME_SHOWN}
)
SEAT_ANNOTATIONS = ("seat_played_at", "seat_player", "seat_number")


def filtered_shape(user: Any, cleaned: dict[str, Any]) -> tuple | None:
    """The shape of the filtered games' query: who asks (STAFF, MEMBER, ANYONE), the filters
    present in the form's order (the confirmation by its value where it is COUNTS, which
    has no value in the query); None for a date range (asked of the ORM)."""
    if cleaned.get("date"):
        return None
    asking = (STAFF if user.is_staff else MEMBER) if user.is_authenticated else ANYONE
    present = tuple(
        name if not (name == "confirmation" and value == COUNTS) else COUNTS
        for name, value in cleaned.items()
        if value not in EMPTY_VALUES
    )
    return asking, present


def filtered_games(shape: tuple, ordering: tuple[str, ...], lookup: str | None, **values: Any):
    """The games of this shape with these values (its slots, or a request's), in `ordering`,
    from `lookup`'s position if given: the page's games list as the view and
    GameCursorPagination built it (Game.objects.visible_to(user).only(*GAME_SHOWN),
    filtered by GameFilter), their GAME_READ and annotations as rows."""
    asking, present = shape
    user = AnonymousUser()
    if asking != ANYONE:
        user = get_user_model()(pk=values.get("user"), is_staff=asking == STAFF)
    games = Game.objects.visible_to(user).only(*GAME_SHOWN)
    filterset = GameFilter(queryset=games)
    filterset.form.cleaned_data = {
        name: COUNTS if name == "confirmation" and COUNTS in present else values.get(name)
        for name in filterset.filters
    }
    games = filterset.filter_queryset(games).order_by(*ordering)
    if lookup is not None:
        games = games.filter(**{lookup: values["position"]})
    annotations = SEAT_ANNOTATIONS if "player" in present else ()
    return games.values_list(*GAME_READ, "confirmation", *annotations)


class CompiledGames:
    """What GameCursorPagination asks of the filtered games (its ordering, then where a page
    starts, then a window of games), noted and answered by their query compiled once per
    shape (filtered_games): DRF's own pagination and links, for games read by values bound
    in place."""

    def __init__(self, shape: tuple, values: dict[str, Any]) -> None:
        self.shape, self.values = shape, values
        # as GameCursorPagination.get_ordering reads a queryset's annotations
        self.query = SimpleNamespace(annotations=SEAT_ANNOTATIONS if "player" in shape[1] else ())
        self.ordering: tuple[str, ...] = ()
        self.lookup: str | None = None

    def order_by(self, *ordering: str) -> CompiledGames:
        self.ordering = ordering
        return self

    def filter(self, **position: str) -> CompiledGames:
        """From a page's position ({"played_at__lt": "2026-..."}): as the ORM reads the
        text, a moment (an error for text that is none, as the ORM's)."""
        ((self.lookup, moment),) = position.items()
        field = Game._meta.get_field("played_at")
        self.values["position"] = field.get_prep_value(moment)
        return self

    def __getitem__(self, window: slice) -> list[Game]:
        shape, ordering, lookup = self.shape, self.ordering, self.lookup
        slots = {name: SLOTS[name] for name in self.values}
        compiled = compile_once(
            ("games page", shape, ordering, lookup),
            Game,
            lambda **values: filtered_games(shape, ordering, lookup, **values),
            slots,
        )
        if compiled is None:  # a query the ORM answers alone (a tournament of no tables)
            rows = list(filtered_games(shape, ordering, lookup, **self.values)[window])
        else:
            limit = window.stop - window.start
            rows = compiled.rows(self.values, WINDOW, (limit, window.start))
        alias, width = router.db_for_read(Game), len(GAME_READ)
        names = ("confirmation", *self.query.annotations)
        games = []
        for row in rows:
            game = Game.from_db(alias, GAME_READ, row[:width])
            for name, value in zip(names, row[width:], strict=True):
                setattr(game, name, value)
            games.append(game)
        return games


def relative(link: str | None) -> str | None:
    if link is None:
        return None
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path
