"""Leaderboards per game type: stored ratings for all games, a fresh run for a filter.

With a filter (tournament games only, a date range) the ratings are those the same Elo and
OpenSkill updates give on just the chosen games, computed in memory.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from games.models import Game, Source
from ratings.models import PROVISIONAL_GAMES, Rating, RatingChange
from ratings.rater import Rater
from ratings.services import elo_k, game_records
from ratings.skill import ordinal
from tournaments.models import Player

TREND_GAMES = 20


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
    player: Player
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
    def sparkline(self) -> str:
        return sparkline_points(self.trend)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


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
        rater = Rater(elo_k())
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
        trends: dict[int, list[float]] = {}
        changes = RatingChange.objects.filter(game_type=game_type).order_by("played_at", "game_id")
        for player_id, value in changes.values_list("player_id", "elo_after"):
            trends.setdefault(player_id, []).append(value)
        rows = [
            Row(
                r.player,
                r.rating,
                r.ordinal,
                r.games,
                r.wins,
                trends.get(r.player_id, [])[-TREND_GAMES:],
            )
            for r in Rating.objects.filter(game_type=game_type).select_related("player")
        ]
    rows.sort(key=lambda r: (-r.elo, r.player.handle))
    established = [r for r in rows if not r.provisional]
    for position, row in enumerate(established, start=1):
        row.position = position
    return rows


def sparkline_points(values: list[float], width: int = 100, height: int = 20) -> str:
    """SVG polyline points for a small trend chart (drawn server-side, no script)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - (v - low) / span * height:.1f}" for i, v in enumerate(values)
    )
