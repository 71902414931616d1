"""A player's page: rating history, games, tournaments, bids, seats and favourite hexes."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from typing import Any, NamedTuple

import numpy as np
import plotly.io as pio
from django.core.paginator import Page, Paginator
from django.db import router
from django.db.models import Count, Model, QuerySet, Value
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe

from accounts.models import ClaimRequest
from analysis.services.summary import SEATED_ANALYSES, seated_analyses_reading
from common.cache import kept
from common.charts import LEGEND_BELOW, embed
from common.compiled import Reading, Statement, compile_once, read, read_one
from common.database import any_of
from common.quick_html import escaped
from common.quick_urls import pieces, quick_url
from engines.core.game import BID
from engines.registry import title_of
from games.filters import COUNTS, confirmation_of
from games.list_rows import mark_of, played
from games.models import Game, GameSeat, Source
from games.pagination import shown_score
from players.models import Player
from ratings import history
from ratings.elo import tenths
from ratings.models import Rating
from ratings.skill import display_ratings, ordinal
from stats.models import (
    NO_TURN_ORDER,
    SEAT_TALLY_SUMS,
    PlayerSeatTally,
    PlayerSeatTallyDelta,
)
from stats.services.hexes import (
    HEX_TALLY,
    hex_names,
    hex_tally_reading,
    hexes_taken,
    hexes_taken_by,
)
from tournaments.models import Registration, Tournament

FAVOURITE_HEXES = 5
GAMES_PER_PAGE = 50
# What the games list shows of a game (templates/pages/player.html), and whether it counts.
GAME_SHOWN = ("log_id", "game_type", "player_count", "source", "played_at", "counts")
COLOURS = ["#1f6fb2", "#c05621", "#2c7a7b", "#6b46c1"]
# Once: each call deep-copies the whole template, half the chart's time.
TEMPLATE = pio.templates["plotly_white"].to_plotly_json()
DAY = datetime.timedelta(days=1)
# A rating axis spans at least this many points, so a game or two does not read as a cliff.
LEAST_RATING_SPAN = 60


def rating_axis(values: list[float]) -> dict[str, Any]:
    """A rating axis in whole points, at least LEAST_RATING_SPAN tall around the values."""
    axis: dict[str, Any] = {"tickformat": "d"}
    low, high = min(values), max(values)
    if high - low < LEAST_RATING_SPAN:
        middle = (low + high) / 2
        axis["range"] = [middle - LEAST_RATING_SPAN / 2, middle + LEAST_RATING_SPAN / 2]
    return axis


def date_axis(first: datetime.datetime, last: datetime.datetime) -> dict[str, Any]:
    """Dates to the day: a day either side of a short history, one tick a day there."""
    axis: dict[str, Any] = {"type": "date", "tickformat": "%Y-%m-%d"}
    if last - first < 7 * DAY:
        start = first.date() - DAY
        axis["range"] = [start.isoformat(), (last.date() + DAY).isoformat()]
        axis["dtick"] = DAY.total_seconds() * 1000
    return axis


RATING_CHART_CONFIG = {"displaylogo": False, "responsive": True}
# The rating chart's drawing, in its cache key (rating_history_figure), so that a site
# updated draws its charts anew: bump it by hand when what draws a chart changes (this
# module's picture_lines and rating_figure, common.charts' embed, common.chart_preview's
# picture). tests/pages/test_the_rating_charts_drawing_is_versioned_by_hand.py holds a
# drawn chart's digest for each version, and fails when the drawing changes without it.
CHART_DRAWING = 1
# The picture's plot is some 350 units wide (common.chart_preview.WIDTH): a long history is
# pictured by two points (its lowest and highest) in each of this many slices of its dates,
# about one point a unit, so the line's shape is kept to the unit (issue 25).
PREVIEW_COLUMNS = 174
# A game type's line as the figure draws it: Elo and OpenSkill values with their dates.
# TYPE_ORDER: the lines (and their colours) in the order of each type's first game's date,
# then of its least game id (two types first played at one moment: a rule the database
# can apply in one reading).
Line = dict[str, list[Any]]


def rating_history_figure(player: Player, fetched: Fetched | None = None) -> str | None:
    """Elo (top) and the OpenSkill rating (below) after each rated game, one line per game
    type, as an embeddable Plotly div (None without rated games): a picture of the lines
    (picture_lines), the figure itself fetched from the player's ratings.json
    (rating_history_data) when the reader explores it. The page writes no point a game
    (issue 25: the busiest player's 4,229 games were half its page's time and most of its
    555 KB). The history's rows `fetched` with the page's other queries, if they were
    (page_rows).

    Kept in the cache (common.cache.kept) under a digest of the history's rows and the
    chart's source URL, everything it is drawn from: a game rated, retracted or moved, a
    merge, anything that changes a point changes the key (no version to bump, no rater to
    tell). A hit saves unpacking and drawing, some 5 ms of the busiest player's page."""
    if fetched is not None and HISTORY in fetched:
        rows = fetched[HISTORY]
    else:
        rows = read_one(history.history_reading(player.pk))
    if not rows:
        return None
    source = reverse("players:ratings", args=[player.handle])

    def drawn() -> str:
        lines, first, last = picture_lines(player, {HISTORY: rows})
        return embed(
            rating_figure(lines, first, last),
            "rating-history",
            config=RATING_CHART_CONFIG,
            source=source,
        )

    def key() -> str:  # called only where the cache keeps anything (kept)
        return f"rating-chart:{history.digest_of([(source, None, CHART_DRAWING), *rows])}"

    return kept(key, drawn)


def rating_history_data(player: Player) -> dict[str, Any] | None:
    """The rating chart's figure (Plotly's JSON), a point a rated game, what the reader
    explores (served by players:ratings); None without rated games. Its dates are
    milliseconds since 1970 (UTC), which a Plotly date axis reads as it reads their text:
    each game type's columns come as arrays of numbers from the player's packed history
    (ratings.history), with no date or row made here (issue 25: this is a page too,
    measured at 1M games)."""
    columns = history_columns(player)
    if not columns:
        return None
    lines = {
        game_type: {
            "elo_x": moments,
            "elo": tenths(elos),
            "skill_x": moments,
            "skill": display_ratings(mus, sigmas),
        }
        for game_type, _, _, moments, elos, mus, sigmas in columns
    }
    first = min(column[1] for column in columns)
    last = max(column[2] for column in columns)
    return rating_figure(lines, first, last)


def histories_in_order(
    player: Player, fetched: Fetched | None = None
) -> list[tuple[str, tuple[np.ndarray, ...]]]:
    """The player's packed history (ratings.history.history_of), each game type's columns
    (microseconds, game ids, Elo, mu, sigma) in the order played, the types in TYPE_ORDER;
    from its rows `fetched` with the page's other queries, if they were (page_rows)."""
    if fetched is not None and HISTORY in fetched:
        histories = history.history_from(fetched[HISTORY])
    else:
        histories = history.history_of(player.pk)
    return sorted(histories.items(), key=lambda kept: (kept[1][0][0], kept[1][1].min()))


def history_columns(player: Player) -> list[tuple[Any, ...]]:
    """Each game type's (name, first and last game's date, then its games' moments in
    milliseconds since 1970 as Python's timestamp() * 1000 computes them, Elo, mu, sigma),
    in TYPE_ORDER."""
    return [
        (
            game_type,
            history.moment_of(int(moments[0])),
            history.moment_of(int(moments[-1])),
            (moments / 1e6 * 1000).tolist(),
            elos.tolist(),
            mus.tolist(),
            sigmas.tolist(),
        )
        for game_type, (moments, _, elos, mus, sigmas) in histories_in_order(player)
    ]


def picture_lines(
    player: Player, fetched: Fetched | None = None
) -> tuple[dict[str, Line], datetime.datetime | None, datetime.datetime | None]:
    """Each game type's line as the page pictures it (TYPE_ORDER), and the first and last
    game's dates, in one reading of the player's rating changes (PICTURE_SQL). A type of at
    most 2 x PREVIEW_COLUMNS games is drawn whole, as the figure draws it; a longer one by
    its shape: the dates from the chart's first game to its last cut in PREVIEW_COLUMNS
    equal slices, in each the point of the lowest and of the highest value (the earliest of
    equals; OpenSkill by its ordinal, which orders its display), and the line's first and
    last point, in the order played (points of one moment by value). Dates as their seconds
    (the picture's x)."""
    types = picture_types(player, fetched)
    if not types:
        return {}, None, None
    lines = {
        game_type: whole_line(*points) if points is not None else sliced_line(slices)
        for game_type, _, _, points, slices in types
    }
    first = min(first for _, first, _, _, _ in types)
    last = max(last for _, _, last, _, _ in types)
    return lines, moment(first), moment(last)


def moment(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC)


def whole_line(
    seconds: list[float], elos: list[float], mus: list[float], sigmas: list[float]
) -> Line:
    elo = tenths(elos)
    return {"elo_x": seconds, "elo": elo, "skill_x": seconds, "skill": display_ratings(mus, sigmas)}


def sliced_line(points: SlicePoints) -> Line:
    """A line from its slices' points (slices_of's): in each slice its lowest and highest
    point and, in the first and the last slice, the line's first and last point, each
    point once, in the order played (points of one moment by value). Every point of a slice
    is played after every point of the slices before it, so the points of all the slices
    sorted at once are each slice's sorted in turn: one sort, where a set and a sort a
    slice cost a millisecond a picture of 4,229 games (issue 25)."""
    low, high, skill_low, skill_high, first, last = points
    elo = sorted_once(
        low[:, ::-1],  # (seconds, Elo)
        np.column_stack((-high[:, 1], high[:, 0])),
        first[:1, :2],
        last[-1:, :2],
    )
    skill = sorted_once(  # (seconds, mu, sigma)
        skill_low[:, 1:],
        np.column_stack((-skill_high[:, 1], skill_high[:, 2:])),
        first[:1, [0, 2, 3]],
        last[-1:, [0, 2, 3]],
    )
    return {
        "elo_x": elo[:, 0].tolist(),
        "elo": tenths(elo[:, 1]),
        "skill_x": skill[:, 0].tolist(),
        "skill": display_ratings(skill[:, 1], skill[:, 2]),
    }


def sorted_once(*points: np.ndarray) -> np.ndarray:
    """The rows of `points` (arrays of as many columns), each row once, sorted as Python
    sorts tuples: by the first column, then the next."""
    rows = np.concatenate(points)
    rows = rows[np.lexsort(rows.T[::-1])]
    return rows[np.r_[True, (rows[1:] != rows[:-1]).any(axis=1)]]


def picture_types(player: Player, fetched: Fetched | None = None) -> list[list[Any]]:
    """picture_lines' reading of the player's packed history (ratings.history): a row a game
    type (in TYPE_ORDER) of its first and last game's seconds (as Python's timestamp() gives
    them), then either its games' columns (seconds, Elo, mu, sigma) or, past 2 x
    PREVIEW_COLUMNS games, its slices' points (SlicePoints): the lowest and highest Elo with
    its seconds (the highest's negated: the earliest of equals), the same of the ordinal
    with mu and sigma, and the slice's first and last point (the order of a point's values
    is the order that picks it: the least, or the greatest, of the slice's points)."""
    histories = [
        (game_type, moments / 1e6, elos, mus, sigmas)
        for game_type, (moments, _, elos, mus, sigmas) in histories_in_order(player, fetched)
    ]
    if not histories:
        return []
    start = min(seconds[0] for _, seconds, *_ in histories)
    span = (max(seconds[-1] for _, seconds, *_ in histories) - start) or 1.0
    types = []
    for game_type, seconds, elos, mus, sigmas in histories:
        row = [game_type, float(seconds[0]), float(seconds[-1]), None, None]
        if len(seconds) <= 2 * PREVIEW_COLUMNS:
            row[3] = [seconds.tolist(), elos.tolist(), mus.tolist(), sigmas.tolist()]
        else:
            row[4] = slices_of(seconds, elos, mus, sigmas, start, span)
        types.append(row)
    return types


class SlicePoints(NamedTuple):
    """A long line's slices' points (slices_of), a row a slice in the order of the slices."""

    low: np.ndarray  # its lowest Elo: (Elo, seconds), the earliest of equals
    high: np.ndarray  # its highest: (Elo, -seconds)
    skill_low: np.ndarray  # its lowest ordinal: (ordinal, seconds, mu, sigma)
    skill_high: np.ndarray  # its highest: (ordinal, -seconds, mu, sigma)
    first: np.ndarray  # its first point: (seconds, Elo, mu, sigma)
    last: np.ndarray  # its last


def slices_of(
    seconds: np.ndarray,
    elos: np.ndarray,
    mus: np.ndarray,
    sigmas: np.ndarray,
    start: float,
    span: float,
) -> SlicePoints:
    """A long line's slices (picture_types), each slice's six points: the points grouped by
    slice once, then each pick's least point per slice (least_per_slice)."""
    at = np.minimum(np.floor((seconds - start) / span * PREVIEW_COLUMNS), PREVIEW_COLUMNS - 1)
    by_slice = np.argsort(at, kind="stable")
    seconds, elos, mus, sigmas, at = (
        column[by_slice] for column in (seconds, elos, mus, sigmas, at)
    )
    begins = np.r_[True, at[1:] != at[:-1]]
    starts, segment = np.flatnonzero(begins), np.cumsum(begins) - 1
    skills = ordinal((mus, sigmas))  # elementwise on arrays
    picks = [
        (elos, seconds),  # the least Elo, the earliest of equals
        (-elos, seconds),  # the greatest
        (skills, seconds, mus, sigmas),
        (-skills, seconds, -mus, -sigmas),
        (seconds, elos, mus, sigmas),  # the first point
        (-seconds, -elos, -mus, -sigmas),  # the last
    ]
    chosen = [least_per_slice(keys, starts, segment) for keys in picks]
    return SlicePoints(
        np.column_stack((elos[chosen[0]], seconds[chosen[0]])),
        np.column_stack((elos[chosen[1]], -seconds[chosen[1]])),
        np.column_stack((skills[chosen[2]], seconds[chosen[2]], mus[chosen[2]], sigmas[chosen[2]])),
        np.column_stack(
            (skills[chosen[3]], -seconds[chosen[3]], mus[chosen[3]], sigmas[chosen[3]])
        ),
        np.column_stack((seconds[chosen[4]], elos[chosen[4]], mus[chosen[4]], sigmas[chosen[4]])),
        np.column_stack((seconds[chosen[5]], elos[chosen[5]], mus[chosen[5]], sigmas[chosen[5]])),
    )


def least_per_slice(
    keys: tuple[np.ndarray, ...], starts: np.ndarray, segment: np.ndarray
) -> np.ndarray:
    """The index of each slice's least point by `keys` compared in order (points grouped by
    slice: `starts` where each begins, `segment` each point's slice): the first key's least
    per slice by one pass, then only its ties (about one a slice) sorted by the rest. One
    sort of every point by all the keys cost 6 ms a picture of 4,229 games (issue 25)."""
    lowest = np.minimum.reduceat(keys[0], starts)
    tied = np.flatnonzero(keys[0] == lowest[segment])
    order = np.lexsort((*(key[tied] for key in reversed(keys[1:])), segment[tied]))
    slices = segment[tied][order]
    return tied[order[np.flatnonzero(np.r_[True, slices[1:] != slices[:-1]])]]


def rating_figure(
    lines: dict[str, Line], first: datetime.datetime, last: datetime.datetime
) -> dict[str, Any]:
    """The rating chart's Plotly figure of the lines (picture_lines' or every game's)."""
    traces = []
    for index, (game_type, line) in enumerate(lines.items()):
        title = title_of(game_type)
        colour = COLOURS[index % len(COLOURS)]
        common = {"type": "scatter", "mode": "lines+markers", "legendgroup": title}
        traces.append(
            {
                **common,
                "x": line["elo_x"],
                "y": line["elo"],
                "name": f"{title} Elo",
                "line": {"color": colour},
                "hovertemplate": "%{x|%Y-%m-%d %H:%M}: Elo %{y:.0f}<extra>" + title + "</extra>",
            }
        )
        traces.append(
            {
                **common,
                "x": line["skill_x"],
                "y": line["skill"],
                "name": f"{title} OpenSkill",
                "line": {"color": colour, "dash": "dot"},
                "yaxis": "y2",
                "hovertemplate": "%{x|%Y-%m-%d %H:%M}: OpenSkill %{y:.0f}<extra>"
                + title
                + "</extra>",
            }
        )
    layout = {
        "title": {"text": "Ratings after each verified game"},
        "height": 480,
        "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
        "xaxis": {
            "title": {"text": "Date played"},
            "anchor": "y2",
            **date_axis(first, last),
        },
        "yaxis": {
            "title": {"text": "Elo (points)"},
            "domain": [0.55, 1],
            **rating_axis([y for line in lines.values() for y in line["elo"]]),
        },
        "yaxis2": {
            "title": {"text": "OpenSkill"},
            "domain": [0, 0.42],
            **rating_axis([y for line in lines.values() for y in line["skill"]]),
        },
        "legend": LEGEND_BELOW,
        "template": TEMPLATE,
    }
    return {"data": traces, "layout": layout}


# The placeholders the page's queries are compiled with (common.compiled): values no
# request sends.
PLAYER_SLOT = 32_123
GAMES_SLOT = [-32_123]
FROM_SLOT = datetime.datetime(1901, 2, 3, 4, 5, 6, tzinfo=datetime.UTC)
TO_SLOT = datetime.datetime(1902, 3, 4, 5, 6, 7, tzinfo=datetime.UTC)
# The keys of the page's compiled queries (common.compiled) of the player's id alone.
SEAT_SUMS, SEAT_KEYS = "player seat sums", "player seat keys"
OPEN_CLAIM, RATINGS, REGISTRATIONS = "player open claim", "player ratings", "player registrations"
# The key of the rating history's rows among the page's (ratings.history.history_reading).
HISTORY = history.HISTORY_KEY


def seat_sums(player: int) -> QuerySet:
    """The player's seat tally by turn order (stats.models.PlayerSeatTally, over counted
    games) with its deltas not folded yet, in one statement's snapshot as the cubes' live
    views, then how many of its seats are in the games that do not count (found by their
    own index, games_uncounted): rows of (aside, turn order, *SEAT_TALLY_SUMS), a few a
    turn order and one aside. Summed from every seat of the player, the busiest's 4,229
    seats on 3,741 pages took 10-15 ms at 1M games (issue 25)."""
    tallied = PlayerSeatTally.objects.filter(player_id=player).annotate(aside=Value(False))
    pending = PlayerSeatTallyDelta.objects.filter(player=player).annotate(aside=Value(False))
    uncounted = Game.objects.filter(counts=False).values("pk")
    aside = (
        GameSeat.objects.filter(player_id=player, game__in=uncounted)
        .annotate(aside=Value(True))
        .values("aside")
        .annotate(
            turn=Value(NO_TURN_ORDER),
            seats=Count("seat"),
            **{name: Value(0) for name in SEAT_TALLY_SUMS[1:]},
        )
        .order_by()
        .values_list("aside", "turn", "seats", *SEAT_TALLY_SUMS[1:])
    )
    return (
        tallied.order_by()
        .values_list("aside", "turn_order", *SEAT_TALLY_SUMS)
        .union(
            pending.order_by().values_list("aside", "turn_order", *SEAT_TALLY_SUMS),
            aside,
            all=True,
        )
        .order_by()
    )


def seat_figures(player: Player, fetched: Fetched | None = None) -> dict[str, Any]:
    """The player's seats counted, average starting bid and results by position in turn
    order over counted games (`seat_results`: games, wins, average placement), from the
    seat tally and the count of its seats in games that do not count (seat_sums). The
    query is compiled once on PostgreSQL (common.compiled); its rows `fetched` with the
    page's other queries, if they were (page_rows)."""
    rows = player_rows(SEAT_SUMS, PlayerSeatTally, seat_sums, player.pk, fetched)
    counted: dict[int, list[int]] = {}
    aside = 0
    for is_aside, turn_order, *sums in rows:
        if is_aside:
            aside += sums[0]
            continue
        total = counted.setdefault(turn_order, [0] * len(SEAT_TALLY_SUMS))
        for at, value in enumerate(sums):
            total[at] += value
    totals = [sum(column) for column in zip(*counted.values(), strict=True)]
    seats, _, _, bids, bid_total = totals or [0] * len(SEAT_TALLY_SUMS)
    return {
        "seat_count": seats + aside,
        # As AVG would give it: a decimal, over the counted seats with a bid.
        "average_bid": Decimal(bid_total) / bids if bids else None,
        "seat_results": [
            {
                "turn_order": turn_order,
                "games": n,
                "wins": won,
                "average_rank": rank_total / n,
            }
            for turn_order, (n, won, rank_total, _, _) in sorted(counted.items())
            if turn_order != NO_TURN_ORDER and n
        ],
    }


class CountedPaginator(Paginator):
    """A paginator told how many items it pages (counted with other figures already)."""

    def __init__(self, object_list: Any, per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self.known_count = count

    @property
    def count(self) -> int:
        return self.known_count


# What the games list reads of a seat and of its game (ListedSeat, ListedGame).
SEAT_READ = tuple(
    field.attname
    for field in GameSeat._meta.concrete_fields
    if field.attname in {"game_id", "seat", "rank", "score", "summary"}
)
GAME_READ = tuple(
    field.attname for field in Game._meta.concrete_fields if field.attname in {"id", *GAME_SHOWN}
)


SOURCES = dict(Source.choices)


class ListedGame(NamedTuple("GameRead", [(name, Any) for name in GAME_READ])):
    """What the games list reads of a game (GAME_READ), as a Game gives it: built as a Game
    instance, each of the list's 100 seats and games cost some 15 microseconds (issue 25)."""

    @property
    def pk(self) -> int:
        return self.id

    def get_source_display(self) -> str:
        return str(SOURCES.get(self.source, self.source))


# What `listed` writes of a seat.
LISTED = ("url", "played", "place", "title", "source", "score_shown")


class ListedSeat:
    """What the games list reads of a seat (SEAT_READ, its `game` a ListedGame) and writes of
    it (`listed`), as a GameSeat gives it."""

    __slots__ = (*SEAT_READ, "game", "confirmation", *LISTED)

    def __init__(self, *values: Any, game: ListedGame) -> None:
        for name, value in zip(SEAT_READ, values, strict=True):
            setattr(self, name, value)
        self.game = game

    @property
    def pk(self) -> tuple[int, int]:
        """As GameSeat's composite key (game, seat)."""
        return (self.game_id, self.seat)


def seat_keys(player: int) -> QuerySet:
    """The player's seats' (played time, game), newest first: a run of games_seats_of_player."""
    return (
        GameSeat.objects.filter(player_id=player)
        .order_by("-played_at", "-game_id")
        .values_list("played_at", "game_id")
    )


def window_seats(
    player: int, start: datetime.datetime, end: datetime.datetime, games: list[int]
) -> QuerySet:
    """The player's seats in these games (played between start and end, so that the seats'
    index finds them), with what the list shows of their games (SEAT_READ, GAME_READ)."""
    return (
        GameSeat.objects.filter(
            any_of("game_id", games), player_id=player, played_at__gte=start, played_at__lte=end
        )
        .order_by()  # no ORDER BY: put in order by the caller, as they are placed
        .values_list(*SEAT_READ, *(f"game__{name}" for name in GAME_READ))
    )


WINDOW_SEAT_SLOTS = {"player": PLAYER_SLOT, "start": FROM_SLOT, "end": TO_SLOT, "games": GAMES_SLOT}
WINDOW_SEATS = "player window seats by its keys"
# window_seats' values for the keys read in the same statement (window_statement).
OF_THE_KEYS = {
    "games": "ARRAY(SELECT k.game_id FROM window_keys AS k)",
    "start": "(SELECT min(k.played_at) FROM window_keys AS k)",
    "end": "(SELECT max(k.played_at) FROM window_keys AS k)",
}


def window_statement(player: int, offset: int) -> Statement | None:
    """window_seats' rows for the games list's window of GAMES_PER_PAGE keys from `offset`
    (seat_keys'), the keys read within the same statement: sent with the page's other
    queries (page_rows), the list costs no round trip of its own (issue 25: it was one of
    six). Both queries as the ORM compiles them (common.compiled), joined here; None where
    they are not compiled."""
    seats = compile_once("player window seats", GameSeat, window_seats, WINDOW_SEAT_SLOTS)
    keys = compile_once(SEAT_KEYS, GameSeat, seat_keys, {"player": PLAYER_SLOT})
    if seats is None or keys is None:
        return None
    places = [name for _, name, _ in sorted(keys.slots)] + ["limit", "offset"]
    if len(places) != len(keys.params) + 2 or len(seats.slots) != len(seats.params):
        raise ValueError("the games list's queries have values that are not slots")
    pieces = seats.sql.split("%s")
    text = [f"WITH window_keys AS ({keys.sql} LIMIT %s OFFSET %s) ", pieces[0]]
    for (_, name, _), piece in zip(sorted(seats.slots), pieces[1:], strict=True):
        if name in OF_THE_KEYS:
            text.append(OF_THE_KEYS[name])
        else:
            text.append("%s")
            places.append(name)
        text.append(piece)
    return Statement(
        WINDOW_SEATS,
        GameSeat,
        "".join(text),
        tuple(places),
        seats.names,
        {"player": player, "limit": GAMES_PER_PAGE, "offset": offset},
        list,  # not read elsewhere: None there
        seats.converters,
    )


class PlayerSeats:
    """A player's seats newest first (by their game's played time, then game, then seat), as
    a paginator slices them: a window's games read as a run of the seats' index
    (games_seats_of_player: its entries only, however deep the window starts), then its
    seats and their games by key. Neither step sorts or joins every seat of the player, each
    page's cost stays that of 50 rows at 1M games (issue 25). Both queries are compiled once
    on PostgreSQL (common.compiled): compiling them was a fifth of the page's CPU."""

    def __init__(
        self, player: Player, known: tuple[int, list[tuple], list[tuple] | None] | None = None
    ) -> None:
        self.player = player.pk
        # (where a window starts, its first GAMES_PER_PAGE keys and their seats' rows, if
        # they were) read already (page_rows)
        self.known = known

    def __getitem__(self, window: slice) -> list[ListedSeat]:
        start, stop = window.start or 0, window.stop
        read = None
        if self.known is not None and self.known[0] == start and stop - start <= GAMES_PER_PAGE:
            # the rows of a longer window's keys: the same rows of these keys' games (all
            # the player's seats in each), and some of other games, not listed
            keys, read = self.known[1][: stop - start], self.known[2]
        else:
            asked = (start, stop - start)
            keys = read_one(player_reading(SEAT_KEYS, GameSeat, seat_keys, self.player, asked))
        if not keys:
            return []
        games = [game_id for _, game_id in keys]
        if read is None:
            values = {"player": self.player, "start": keys[-1][0], "end": keys[0][0]}
            values["games"] = list(set(games))
            slots = WINDOW_SEAT_SLOTS
            read = read_one(Reading("player window seats", GameSeat, window_seats, slots, values))
        of_game: dict[int, list[ListedSeat]] = {}
        width = len(SEAT_READ)
        for row in sorted(read, key=lambda row: row[SEAT_READ.index("seat")]):
            seat = ListedSeat(*row[:width], game=ListedGame(*row[width:]))
            of_game.setdefault(seat.game_id, []).append(seat)
        # A player seated twice in a game has its game listed twice; a page may end between
        # the two seats: the next page starts with the second.
        times = Counter(games)
        rows = []
        for game_id in dict.fromkeys(games):
            seated = of_game[game_id]
            if times[game_id] < len(seated):
                cut = times[game_id]
                seated = seated[-cut:] if game_id == games[0] else seated[:cut]
            rows.extend(seated)
        return rows


def games_page(
    player: Player, count: int, page: str | None, fetched: Fetched | None = None
) -> Page:
    """The player's seats GAMES_PER_PAGE at a time, newest first, with only what the list
    shows of each game and its confirmation state (`confirmation`, see games.filters): from
    the game where it counts, from its review for the few that do not. The page's first
    keys `fetched` with the page's other queries, if they were (page_rows)."""
    known = None
    if fetched is not None and SEAT_KEYS in fetched:
        start = (page_asked(page) - 1) * GAMES_PER_PAGE
        known = (start, fetched[SEAT_KEYS], fetched.get(WINDOW_SEATS))
    paginator = CountedPaginator(PlayerSeats(player, known), GAMES_PER_PAGE, count)
    shown = paginator.get_page(page)
    rows = shown.object_list
    uncounted = {seat.game_id for seat in rows if not seat.game.counts}
    states = {}
    if uncounted:
        states = dict(
            Game.objects.filter(pk__in=uncounted)
            .annotate(confirmation=confirmation_of())
            .values_list("pk", "confirmation")
        )
    zone, log_url = timezone.get_current_timezone(), log_url_of()
    for seat in rows:
        seat.confirmation = states.get(seat.game_id, COUNTS)
        listed(seat, zone, log_url)
    return shown


def log_url_of() -> Callable[[int], str]:
    """quick_url("games:log", log_id) for the current script prefix, its pieces looked up
    once for a page's rows (issue 25: once a row, some 3 microseconds)."""
    before, after = pieces("games:log", (int,), get_script_prefix())
    return lambda log_id: (
        f"{before}{log_id}{after}" if log_id >= 0 else quick_url("games:log", log_id)
    )


def listed(seat: ListedSeat, zone: datetime.tzinfo, log_url: Callable[[int], str]) -> None:
    """What the games list writes of a seat's game, said here: its link (`url`, the game's
    get_absolute_url), when it was played in the current time zone (`played`, as the date
    filter gives "Y-m-d H:i"), the seat's place (`place`, "2 of 4"), the game's `title` and
    `source`, and the seat's score (`score_shown`). Through the template,
    reverse(), the date filter and two localised numbers took some 100 microseconds a row,
    most of the 50-row list's 8 ms (issue 25). `zone` (the current time zone) and `log_url`
    (log_url_of) looked up once for a page's rows."""
    game = seat.game
    seat.url = log_url(game.log_id)
    seat.played = played(game.played_at, zone)
    seat.place = f"{seat.rank} of {game.player_count}"
    # And the game's title, source and the seat's score as |game_title, get_source_display
    # and |floatformat:"-1" wrote them: a template variable looked up through the seat and its
    # game, and floatformat's Decimal, were some 60 microseconds a row (issue 25).
    seat.title = title_of(game.game_type)
    seat.source = game.get_source_display()
    seat.score_shown = shown_score(seat.score)


# A games list row, as templates/pages/player.html's loop wrote it (its line breaks and
# indents kept, so the page's bytes are the same): confirmation state, link, date, title,
# source and its mark, place, score, bid.
GAME_ROW_HTML = (
    '\n    <tr data-confirmation="{}"><td><a href="{}">{}</a></td><td>{}</td>\n'
    "      <td>{}{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n  "
)
NO_GAMES_HTML = '<tr><td colspan="6">No verified games yet.</td></tr>'


def games_rows(seats: list[ListedSeat]) -> SafeString:
    """The games list's rows (games_page's seats, `listed`) as the template's loop wrote them,
    each text escaped as it escaped them (a number's text has nothing to escape): written by
    the template, its 50 rows' some 600 variables were half the page's CPU at 1M games
    (issue 25)."""
    if not seats:
        return mark_safe(NO_GAMES_HTML)
    rows = []
    for seat in seats:
        bid = (seat.summary or {}).get(BID)
        rows.append(
            GAME_ROW_HTML.format(
                escaped(seat.confirmation),
                escaped(seat.url),
                seat.played,  # digits, "-", ":" and a space: nothing to escape
                escaped(seat.title),
                escaped(seat.source),
                "" if seat.confirmation == COUNTS else mark_of(seat.confirmation),
                seat.place,  # "2 of 4": two numbers' text
                seat.score_shown,  # a number's text
                "\N{EN DASH}" if bid is None else escaped(localize(bid)),
            )
        )
    return mark_safe("".join(rows))


def favourite_hexes(player: Player, fetched: Fetched | None = None) -> list[tuple[str, int]]:
    """The hexes this player took most often in counted games, by name: read from the
    statistics' tally of the player's takes (stats.models.PlayerHexTally, a few dozen rows),
    not from every game's hex lines; from its rows `fetched` with the page's other queries,
    if they were (page_rows)."""
    if fetched is not None and HEX_TALLY in fetched:
        taken = hexes_taken(fetched[HEX_TALLY])
    else:
        taken = hexes_taken_by(player.pk)
    names = hex_names()
    ranked = sorted(taken.items(), key=lambda item: (-item[1], item[0]))[:FAVOURITE_HEXES]
    return [(names.get(hex_id, hex_id), times) for hex_id, times in ranked]


PLAYER_READ = tuple(field.attname for field in Player._meta.concrete_fields)
HANDLE_SLOT = "slot:handle"


def named(handle: str) -> QuerySet:
    return Player.objects.filter(handle=handle).order_by().values_list(*PLAYER_READ)[:1]


def player_named(handle: str) -> Player | None:
    """The player of this handle, or None; its query compiled once on PostgreSQL."""
    rows = read_one(
        Reading("player of handle", Player, named, {"handle": HANDLE_SLOT}, {"handle": handle})
    )
    for row in rows:
        return Player.from_db(router.db_for_read(Player), PLAYER_READ, row)
    return None


# The rows of some of the page's queries read in one round trip, by their key (page_rows).
Fetched = dict[str, list[tuple]]


def player_reading(
    key: str,
    model: type[Model],
    build: Callable[[int], QuerySet],
    player: int,
    window: tuple[int, int] | None = None,
) -> Reading:
    """build(player)'s rows (a values_list; its `window` of them, (offset, limit), if given),
    its query compiled once on PostgreSQL (common.compiled): the ORM built and compiled each
    of the page's queries afresh on every request, some 0.5 ms each (issue 25)."""
    return Reading(key, model, build, {"player": PLAYER_SLOT}, {"player": player}, window)


def player_rows(
    key: str,
    model: type[Model],
    build: Callable[[int], QuerySet],
    player: int,
    fetched: Fetched | None = None,
) -> Any:
    """build(player)'s rows (player_reading): those `fetched` under `key`, if they were."""
    if fetched is not None and key in fetched:
        return fetched[key]
    return read_one(player_reading(key, model, build, player))


def open_claim(player: int) -> QuerySet:
    """When the player's oldest undecided claim request was made (no row for none)."""
    asked = ClaimRequest.objects.filter(player_id=player, decided_at__isnull=True)
    return asked.order_by("created").values_list("created")[:1]


def claim_status(player: Player, fetched: Fetched | None = None) -> dict[str, Any]:
    """Whether the name is claimed (and since when), awaiting approval of a claim, or
    unclaimed."""
    if player.user_id is not None:
        return {"state": "claimed", "since": player.claimed_at}
    for (created,) in player_rows(OPEN_CLAIM, ClaimRequest, open_claim, player.pk, fetched):
        return {"state": "awaiting approval", "since": created}
    return {"state": "unclaimed", "since": None}


RATING_READ = tuple(field.attname for field in Rating._meta.concrete_fields)


def player_ratings(player: int) -> QuerySet:
    return Rating.objects.filter(player_id=player).order_by("game_type").values_list(*RATING_READ)


def ratings_of(player: Player, fetched: Fetched | None = None) -> list[Rating]:
    """The player's ratings by game type."""
    alias = router.db_for_read(Rating)
    rows = player_rows(RATINGS, Rating, player_ratings, player.pk, fetched)
    return [Rating.from_db(alias, RATING_READ, row) for row in rows]


REGISTRATION_READ = tuple(field.attname for field in Registration._meta.concrete_fields)
# What the page shows of a registration's tournament: its link, name and status.
TOURNAMENT_READ = tuple(
    field.attname
    for field in Tournament._meta.concrete_fields
    if field.attname in {"id", "name", "slug", "status"}
)


def player_registrations(player: int) -> QuerySet:
    return Registration.objects.filter(player_id=player).values_list(
        *REGISTRATION_READ, *(f"tournament__{name}" for name in TOURNAMENT_READ)
    )


def registrations_of(player: Player, fetched: Fetched | None = None) -> list[Registration]:
    """The player's registrations (in their model's order), each with its tournament."""
    alias = router.db_for_read(Registration)
    width = len(REGISTRATION_READ)
    registrations = []
    rows = player_rows(REGISTRATIONS, Registration, player_registrations, player.pk, fetched)
    for row in rows:
        registration = Registration.from_db(alias, REGISTRATION_READ, row[:width])
        tournament = Tournament.from_db(alias, TOURNAMENT_READ, row[width:])
        registration._state.fields_cache["tournament"] = tournament
        registrations.append(registration)
    return registrations


def page_asked(page: str | None) -> int:
    """The games list's page `page` names, as Paginator.get_page reads it before it knows
    how many pages there are: a whole number, or 1 for what is not one (a number below 1
    reads as the last page: page_rows then reads no keys)."""
    try:
        return int(page)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 1


def page_rows(player: Player, page: str | None) -> Fetched:
    """The rows of the page's queries of the player that need nothing but its id, by their
    keys: the seat sums, the games list's first keys of the page asked (from where that
    page starts, GAMES_PER_PAGE of them), the open claim (for a name not claimed), the
    ratings, the registrations, the rating history (ratings.history.history_reading, the
    chart's), the hex tally and the analyses of the player's seats (the analysis
    section's). Sent in one round trip where they can be (common.compiled.read; else each
    asked alone): ten queries one by one were a quarter of the page's time at 1M games
    (issue 25)."""
    builds: list[tuple[str, type[Model], Callable[[int], QuerySet]]] = [
        (SEAT_SUMS, PlayerSeatTally, seat_sums),
        (RATINGS, Rating, player_ratings),
        (REGISTRATIONS, Registration, player_registrations),
    ]
    if player.user_id is None:
        builds.append((OPEN_CLAIM, ClaimRequest, open_claim))
    readings = [player_reading(key, model, build, player.pk) for key, model, build in builds]
    number = page_asked(page)
    if number >= 1:
        window = ((number - 1) * GAMES_PER_PAGE, GAMES_PER_PAGE)
        readings.append(player_reading(SEAT_KEYS, GameSeat, seat_keys, player.pk, window))
    asked = [
        *readings,
        history.history_reading(player.pk),
        hex_tally_reading(player.pk),
        seated_analyses_reading(player.pk),
    ]
    if number >= 1:
        seats = window_statement(player.pk, (number - 1) * GAMES_PER_PAGE)
        asked += [] if seats is None else [seats]
    found = read(asked)
    return {reading.key: rows for reading, rows in zip(asked, found, strict=True)}


def player_profile(player: Player, page: str | None = None) -> dict[str, Any]:
    """The page's figures; its games list GAMES_PER_PAGE at a time, newest first (`page`),
    each with its confirmation state (`confirmation`, see games.filters)."""
    fetched = page_rows(player, page)
    figures = seat_figures(player, fetched)
    seats = games_page(player, figures["seat_count"], page, fetched)
    return {
        "player": player,
        "claim": claim_status(player, fetched),
        "rating_chart": rating_history_figure(player, fetched),
        "ratings": ratings_of(player, fetched),
        "seats": seats,
        "games_rows": games_rows(seats.object_list),
        "registrations": registrations_of(player, fetched),
        "average_bid": figures["average_bid"],
        "seat_results": figures["seat_results"],
        "favourite_hexes": favourite_hexes(player, fetched),
        # the analysis section's rows (analysis_tags.player_decision_costs), None if unread
        "analysed": fetched.get(SEATED_ANALYSES),
    }
