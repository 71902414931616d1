"""A player's page: rating history, games, tournaments, bids, seats and favourite hexes."""

from __future__ import annotations

import datetime
from collections import Counter
from decimal import Decimal
from typing import Any

import plotly.io as pio
from django.core.paginator import Page, Paginator
from django.db.models import Count, IntegerField, Q, QuerySet, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from common.chart_preview import Dates
from common.charts import embed
from common.quick_urls import quick_url
from engines.core.game import BID, TURN_ORDER
from engines.registry import title_of
from games.filters import COUNTS, confirmation_of
from games.models import Game, GameSeat
from games.pagination import shown_score
from players.models import Player
from ratings.models import RatingChange
from ratings.skill import display_ratings
from stats.services.hexes import hex_names, hexes_taken_by

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


def rating_history_figure(player: Player) -> str | None:
    """Elo (top) and the OpenSkill rating (below) after each rated game, one line per game
    type, as an embeddable Plotly div (None without rated games)."""
    # Plain tuples, not model instances, taken a column at a time: a player of a thousand
    # games costs a millisecond, of ten thousand (at 1M games) ten (issue 25).
    changes = list(
        RatingChange.objects.filter(player=player)
        .order_by("played_at", "game_id")
        .values_list("game_type", "played_at", "elo_after", "mu_after", "sigma_after")
    )
    if not changes:
        return None
    by_type: dict[str, list[tuple]] = {}
    for change in changes:
        by_type.setdefault(change[0], []).append(change)
    lines = {}
    for game_type, rows in by_type.items():
        _, played, elos, mus, sigmas = zip(*rows, strict=True)
        lines[game_type] = {
            "x": Dates.of(played),  # the texts, their seconds for the picture
            "elo": [round(elo, 1) for elo in elos],
            "skill": display_ratings(mus, sigmas),
        }
    dates = [changes[0][1], changes[-1][1]]
    traces = []
    for index, (game_type, line) in enumerate(lines.items()):
        title = title_of(game_type)
        colour = COLOURS[index % len(COLOURS)]
        common = {"type": "scatter", "mode": "lines+markers", "x": line["x"], "legendgroup": title}
        traces.append(
            {
                **common,
                "y": line["elo"],
                "name": f"{title} Elo",
                "line": {"color": colour},
                "hovertemplate": "%{x|%Y-%m-%d %H:%M}: Elo %{y:.0f}<extra>" + title + "</extra>",
            }
        )
        traces.append(
            {
                **common,
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
            **date_axis(dates[0], dates[-1]),
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
        "legend": {"orientation": "h", "y": -0.2},
        "template": TEMPLATE,
    }
    return embed(
        {"data": traces, "layout": layout},
        "rating-history",
        config={"displaylogo": False, "responsive": True},
    )


def summary_number(key: str) -> Cast:
    """A number of the seats' summaries (GameSeat.summary) for the database to sum."""
    return Cast(KeyTextTransform(key, "summary"), IntegerField())


def seat_tallies(seats: QuerySet[GameSeat]) -> dict[Any, dict[str, int]]:
    """The seats' sums by turn order: seats, wins, ranks, bids and their total."""
    rows = (
        seats.annotate(turn_order=summary_number(TURN_ORDER), bid=summary_number(BID))
        .values("turn_order")
        .annotate(
            seats=Count("pk"),
            wins=Count("pk", filter=Q(winner=True)),
            ranks=Sum("rank"),
            bids=Count("bid"),
            bid_total=Sum("bid"),
        )
        .order_by()
    )
    return {row.pop("turn_order"): row for row in rows}


def seat_figures(player: Player) -> dict[str, Any]:
    """The player's seats counted, average starting bid and results by position in turn
    order over counted games (`seat_results`: games, wins, average placement): the sums over
    every seat of the player, less those over its seats in the few games that do not count
    (found by their own index, games_uncounted), so that no reading joins each of the
    player's seats to its game (half the cost at 1M games, issue 25)."""
    mine = GameSeat.objects.filter(player=player)
    every = seat_tallies(mine)
    aside = seat_tallies(mine.filter(game__in=Game.objects.filter(counts=False).values("pk")))
    counted = {}
    for turn_order, sums in every.items():
        less = aside.get(turn_order, {})
        counted[turn_order] = {name: (sums[name] or 0) - (less.get(name) or 0) for name in sums}
    bids = sum(sums["bids"] for sums in counted.values())
    return {
        "seat_count": sum(sums["seats"] for sums in every.values()),
        # As AVG would give it: a decimal, over the counted seats with a bid.
        "average_bid": (
            Decimal(sum(sums["bid_total"] for sums in counted.values())) / bids if bids else None
        ),
        "seat_results": [
            {
                "turn_order": turn_order,
                "games": sums["seats"],
                "wins": sums["wins"],
                "average_rank": sums["ranks"] / sums["seats"],
            }
            for turn_order, sums in sorted(counted.items(), key=lambda item: item[0] or 0)
            if turn_order is not None and sums["seats"]
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


class PlayerSeats:
    """A player's seats newest first (by their game's played time, then game, then seat), as
    a paginator slices them: a window's games read as a run of the seats' index
    (games_seats_of_player: its entries only, however deep the window starts), then its
    seats and their games by key. Neither step sorts or joins every seat of the player, each
    page's cost stays that of 50 rows at 1M games (issue 25)."""

    def __init__(self, player: Player) -> None:
        self.mine = GameSeat.objects.filter(player=player)

    def __getitem__(self, window: slice) -> list[GameSeat]:
        keys = list(
            self.mine.order_by("-played_at", "-game_id").values_list("played_at", "game_id")[window]
        )
        if not keys:
            return []
        games = [game_id for _, game_id in keys]
        seats = (
            self.mine.filter(
                played_at__gte=keys[-1][0], played_at__lte=keys[0][0], game_id__in=set(games)
            )
            .order_by()  # no ORDER BY: put in order below, as they are placed
            .select_related("game")
            .only(
                "game_id",
                "seat",
                "rank",
                "score",
                "summary",
                *(f"game__{name}" for name in GAME_SHOWN),
            )
        )
        of_game: dict[int, list[GameSeat]] = {}
        for seat in sorted(seats, key=lambda seat: seat.seat):
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


def games_page(player: Player, count: int, page: str | None) -> Page:
    """The player's seats GAMES_PER_PAGE at a time, newest first, with only what the list
    shows of each game and its confirmation state (`confirmation`, see games.filters): from
    the game where it counts, from its review for the few that do not."""
    shown = CountedPaginator(PlayerSeats(player), GAMES_PER_PAGE, count).get_page(page)
    rows = shown.object_list
    uncounted = {seat.game_id for seat in rows if not seat.game.counts}
    states = {}
    if uncounted:
        states = dict(
            Game.objects.filter(pk__in=uncounted)
            .annotate(confirmation=confirmation_of())
            .values_list("pk", "confirmation")
        )
    for seat in rows:
        seat.confirmation = states.get(seat.game_id, COUNTS)
        listed(seat)
    return shown


def listed(seat: GameSeat) -> None:
    """What the games list writes of a seat's game, said here: its link (`url`, the game's
    get_absolute_url), when it was played in the current time zone (`played`, as the date
    filter gives "Y-m-d H:i"), the seat's place (`place`, "2 of 4"), the game's `title` and
    `source`, and the seat's score (`score_shown`). Through the template,
    reverse(), the date filter and two localised numbers took some 100 microseconds a row,
    most of the 50-row list's 8 ms (issue 25)."""
    game = seat.game
    when = timezone.localtime(game.played_at)
    seat.url = quick_url("games:log", game.log_id)
    seat.played = (
        f"{when.year:04d}-{when.month:02d}-{when.day:02d} {when.hour:02d}:{when.minute:02d}"
    )
    seat.place = f"{seat.rank} of {game.player_count}"
    # And the game's title, source and the seat's score as |game_title, get_source_display
    # and |floatformat:"-1" wrote them: a template variable looked up through the seat and its
    # game, and floatformat's Decimal, were some 60 microseconds a row (issue 25).
    seat.title = title_of(game.game_type)
    seat.source = game.get_source_display()
    seat.score_shown = shown_score(seat.score)


def favourite_hexes(player: Player) -> list[tuple[str, int]]:
    """The hexes this player took most often in counted games, by name: read from the
    statistics' tally of the player's takes (stats.models.PlayerHexTally, a few dozen rows),
    not from every game's hex lines."""
    taken = hexes_taken_by(player.pk)
    names = hex_names()
    ranked = sorted(taken.items(), key=lambda item: (-item[1], item[0]))[:FAVOURITE_HEXES]
    return [(names.get(hex_id, hex_id), times) for hex_id, times in ranked]


def claim_status(player: Player) -> dict[str, Any]:
    """Whether the name is claimed (and since when), awaiting approval of a claim, or
    unclaimed. The requests are the accounts app's (read through their reverse relation)."""
    if player.user_id is not None:
        return {"state": "claimed", "since": player.claimed_at}
    asked = player.claim_requests.filter(decided_at__isnull=True).order_by("created").first()
    if asked is not None:
        return {"state": "awaiting approval", "since": asked.created}
    return {"state": "unclaimed", "since": None}


def player_profile(player: Player, page: str | None = None) -> dict[str, Any]:
    """The page's figures; its games list GAMES_PER_PAGE at a time, newest first (`page`),
    each with its confirmation state (`confirmation`, see games.filters)."""
    figures = seat_figures(player)
    return {
        "player": player,
        "claim": claim_status(player),
        "rating_chart": rating_history_figure(player),
        "ratings": player.ratings.order_by("game_type"),
        "seats": games_page(player, figures["seat_count"], page),
        "registrations": player.registrations.select_related("tournament"),
        "average_bid": figures["average_bid"],
        "seat_results": figures["seat_results"],
        "favourite_hexes": favourite_hexes(player),
    }
