"""Leaderboards per game type: stored ratings for all games, a fresh run for a filter.

With a filter (tournament games only, a date range) the ratings are those the same Elo and
OpenSkill updates give on just the chosen games, computed in memory.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import NamedTuple

from django.contrib.postgres.expressions import ArraySubquery
from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, F, OuterRef, QuerySet, When
from django.utils.safestring import SafeString, mark_safe

from common.compiled import Compiled, compile_once
from common.database import any_of, newest_per_group
from common.quick_urls import slug_url
from games.models import Game, Source
from players.models import Player
from ratings.models import PROVISIONAL_GAMES, Rating, RatingChange
from ratings.rater import Rater
from ratings.services import elo_k, game_records
from ratings.skill import display_rating, ordinal

TREND_GAMES = 20
ROWS_PER_PAGE = 100
# A leaderboard row, built in Python: a template loop costs several times more per row.
# Each number cell carries its unrounded value in data-sort, for sorting in the browser
# (static/site/sortable.js); the provisional have no position, a blank that sorts last.
ROW_HTML = (
    '<tr><td data-sort="{}">{}</td><td data-sort="{}" class="identity"><a href="{}">{}</a></td>'
    '<td data-sort="{}">{}{}</td><td data-sort="{}">{}{}</td><td data-sort="{}">{}</td>'
    '<td data-sort="{}">{}%</td><td>{}</td></tr>\n'
)
# A provisional rating reads "1520?", as lichess marks one.
PROVISIONAL_MARK = mark_safe(
    '<abbr class="provisional" title="provisional: fewer than 10 games">?</abbr>'
)
SPARKLINE_SVG = (
    '<svg class="sparkline" width="100" height="20" viewBox="0 0 100 20" role="img" '
    'aria-label="Elo trend"><polyline fill="none" stroke="currentColor" stroke-width="1.5" '
    'points="{}"/></svg>'
)


@dataclass(frozen=True)
class Filters:
    tournament_only: bool = False
    since: datetime.date | None = None
    until: datetime.date | None = None

    @property
    def any(self) -> bool:
        return self.tournament_only or self.since is not None or self.until is not None


@dataclass
class Row:
    player: Player | Named  # Named on a page of stored ratings
    elo: float
    openskill: float
    games: int
    wins: int
    trend: list[float] = field(default_factory=list)
    position: int | None = None

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def mark(self) -> str:
        """What follows a rating: "?" while it is provisional."""
        return PROVISIONAL_MARK if self.provisional else ""

    @property
    def sparkline(self) -> str:
        return sparkline_points(self.trend)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def html(self) -> SafeString:
        """The row's <tr> in the leaderboard table. Only the name and the link are text to
        escape: a number's text has nothing to escape (as format_html writes it)."""
        points = self.sparkline
        name = escape(self.player.display_name)
        mark = self.mark
        win_rate = self.win_rate
        return mark_safe(
            ROW_HTML.format(
                self.position or "",
                self.position or "\N{EN DASH}",
                name,
                escape(slug_url("players:detail", self.player.handle)),  # get_absolute_url()
                name,
                f"{self.elo:.12g}",
                f"{self.elo:.0f}",
                mark,
                f"{self.openskill:.12g}",
                display_rating(self.openskill),
                mark,
                self.games,
                self.games,
                f"{win_rate:.12g}",
                round(win_rate * 100),
                SPARKLINE_SVG.format(points) if points else "",
            )
        )


class Named(NamedTuple):
    """A leaderboard row's player: what the row shows of them (Player has the same)."""

    handle: str
    display_name: str


def filtered_games(game_type: str, filters: Filters):
    games = Game.objects.filter(game_type=game_type)
    if filters.tournament_only:
        games = games.filter(source=Source.TOURNAMENT)
    if filters.since is not None:
        games = games.filter(played_at__date__gte=filters.since)
    if filters.until is not None:
        games = games.filter(played_at__date__lte=filters.until)
    return games


def leaderboard_rows(game_type: str, filters: Filters = Filters()) -> list[Row]:
    """Every rated player, best Elo first (provisional ones included, marked)."""
    if filters.any:
        rater = Rater(elo_k(), history=True)
        for record in game_records(game_type, filtered_games(game_type, filters)):
            rater.apply(record)
        players = Player.objects.in_bulk(list(rater.players))
        rows = [
            Row(
                players[p],
                s.elo,
                ordinal((s.mu, s.sigma)),
                s.games,
                s.wins,
                s.history[-TREND_GAMES:],
            )
            for p, s in rater.players.items()
        ]
    else:
        trends = recent_elo(game_type)
        rows = [
            Row(r.player, r.rating, r.ordinal, r.games, r.wins, trends.get(r.player_id, []))
            for r in Rating.objects.filter(game_type=game_type).select_related("player")
        ]
    rows.sort(key=lambda r: (-r.elo, r.player.handle))
    established = [r for r in rows if not r.provisional]
    for position, row in enumerate(established, start=1):
        row.position = position
    return rows


def leaderboard_page(game_type: str, filters: Filters, number: str | None) -> Page:
    """One page of the leaderboard: established players (ranked) first, then provisional
    ones, ROWS_PER_PAGE at a time. Stored ratings are paged by the database and only the
    page's rows read their trend: a page costs the same with thousands of players as with
    fifty. A filtered leaderboard is rated afresh in memory, then paged."""
    if filters.any:
        rows = leaderboard_rows(game_type, filters)
        ordered = [r for r in rows if not r.provisional] + [r for r in rows if r.provisional]
        return Paginator(ordered, ROWS_PER_PAGE).get_page(number)
    paged = CompiledRatings.of(game_type) or ordered_ratings(game_type)
    page = Paginator(paged, ROWS_PER_PAGE).get_page(number)
    rows = list(page.object_list)
    trends = recent_elo(game_type, [player_id for player_id, *_ in rows])
    page.object_list = [
        Row(Named(handle, name), elo, ordinal((mu, sigma)), games, wins, trends.get(player_id, []))
        for player_id, handle, name, elo, mu, sigma, games, wins in rows
    ]
    for position, row in enumerate(page.object_list, start=page.start_index()):
        row.position = None if row.provisional else position
    return page


def ordered_ratings(game_type: str) -> QuerySet:
    """A game type's stored ratings as a page shows them: established first, best Elo first."""
    return (
        Rating.objects.filter(game_type=game_type)
        .annotate(provisional_first=Case(When(games__lt=PROVISIONAL_GAMES, then=1), default=0))
        .order_by("provisional_first", "-rating", "player__handle")
        # Values, not Rating and Player instances: 200 of them cost more than the query.
        .values_list(
            "player_id",
            "player__handle",
            "player__display_name",
            "rating",
            "mu",
            "sigma",
            "games",
            "wins",
        )
    )


def rated_count(game_type: str) -> QuerySet:
    """How many players a game type has stored ratings for, as a query of one row (none for
    no player): what the Paginator's count() of ordered_ratings counts."""
    return (
        Rating.objects.filter(game_type=game_type)
        .order_by()
        .values("game_type")
        .annotate(rated=Count("*"))
        .values_list("rated")
    )


# The placeholders the leaderboard's queries are compiled with (common.compiled).
GAME_SLOT = "slot:game_type"
PLAYERS_SLOT = [-32_123]


class CompiledRatings:
    """ordered_ratings(game_type) for the Paginator, its count and its slices each read by
    one query compiled once (common.compiled): the ORM built and compiled them afresh on
    every request (issue 25)."""

    def __init__(self, game_type: str, count: Compiled, rows: Compiled) -> None:
        self.game_type = game_type
        self.counting = count
        self.reading = rows

    @classmethod
    def of(cls, game_type: str) -> CompiledRatings | None:
        """None where the queries are not compiled (SQLite): ask the ORM."""
        slots = {"game_type": GAME_SLOT}
        count = compile_once("leaderboard count", Rating, rated_count, slots)
        rows = compile_once("leaderboard rows", Rating, ordered_ratings, slots)
        if count is None or rows is None:
            return None
        return cls(game_type, count, rows)

    def count(self) -> int:
        found = self.counting.rows({"game_type": self.game_type})
        return found[0][0] if found else 0

    def __getitem__(self, wanted: slice) -> list[tuple]:
        start, stop = wanted.start or 0, wanted.stop
        return self.reading.rows(
            {"game_type": self.game_type}, " LIMIT %s OFFSET %s", (stop - start, start)
        )


def recent_elo(game_type: str, player_ids: list[int] | None = None) -> dict[int, list[float]]:
    """Each player's Elo after their last TREND_GAMES games, oldest first (of these players,
    or every rated one), without reading every rating change of the game type. For a page's
    players the query is compiled once (common.compiled), the players sent as one array."""
    if player_ids is not None:
        compiled = compile_once(
            "leaderboard trends",
            Rating,
            newest_elo,
            {"game_type": GAME_SLOT, "players": PLAYERS_SLOT},
        )
        if compiled is not None:
            return {
                player_id: trend[::-1]
                for player_id, trend in compiled.rows(
                    {"game_type": game_type, "players": player_ids}
                )
            }
    players = {} if player_ids is None else {"player_id__in": player_ids}
    newest = newest_per_group(
        RatingChange.objects.filter(game_type=game_type),
        group="player_id",
        value="elo_after",
        order_by=[F("played_at").desc(), F("game_id").desc()],
        count=TREND_GAMES,
        groups=Rating.objects.filter(game_type=game_type, **players).values("player_id"),
    )
    return {player_id: trend[::-1] for player_id, trend in newest.items()}


def newest_elo(game_type: str, players: list[int]) -> QuerySet:
    """recent_elo's query on PostgreSQL (newest_per_group's), its players as one parameter:
    (player id, their last TREND_GAMES Elo ratings newest first) per player."""
    newest = (
        RatingChange.objects.filter(game_type=game_type, player_id=OuterRef("player_id"))
        .order_by(F("played_at").desc(), F("game_id").desc())
        .values("elo_after")[:TREND_GAMES]
    )
    return (
        Rating.objects.filter(any_of("player_id", players), game_type=game_type)
        .order_by()
        .annotate(newest=ArraySubquery(newest))
        .values_list("player_id", "newest")
    )


@lru_cache(maxsize=32)
def sparkline_template(count: int, width: int) -> str:
    """The points of a trend of `count` values over `width` as one format string, each x
    written in (the same on every row of a leaderboard) and each y a "{:.1f}" place: a row's
    points are then one str.format call, not 20 f-strings (a page has 2,000 points)."""
    step = width / (count - 1)
    return " ".join(f"{i * step:.1f},{{:.1f}}" for i in range(count))


def sparkline_points(values: list[float], width: int = 100, height: int = 20) -> str:
    """SVG polyline points for a small trend chart (drawn server-side, no script)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return sparkline_template(len(values), width).format(
        *[height - (v - low) / span * height for v in values]
    )
