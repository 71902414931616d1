"""What the home page leads to: tournaments under way, the latest verified games, and the
best-rated players of each game."""

from __future__ import annotations

from dataclasses import dataclass

from engines.registry import GAMES, get_game
from games.models import Game, Source
from ratings.models import PROVISIONAL_GAMES, Rating
from tournaments.models import Tournament

RECENT_GAMES = 8
TOP_PLAYERS = 5


@dataclass
class GameLeaders:
    game_type: str
    title: str
    ratings: list[Rating]


def active_tournaments() -> list[Tournament]:
    """Running tournaments first, then those taking registrations."""
    tournaments = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    return sorted(tournaments, key=lambda t: (t.status != Tournament.Status.RUNNING, t.starts_on))


def recent_games() -> list[Game]:
    return list(
        # People's games: the simulation lab's bot batches are for the statistics pages.
        Game.objects.exclude(source=Source.SIMULATED)
        .select_related("log")
        .prefetch_related("seats__player")
        .order_by("-played_at", "-pk")[:RECENT_GAMES]
    )


def leaders() -> list[GameLeaders]:
    """Per game, the best Elo: players past the provisional games first, then provisional
    ones (marked on the page) while there are too few of the former."""
    result = []
    for game_type in GAMES:
        ratings = sorted(
            Rating.objects.filter(game_type=game_type).select_related("player"),
            key=lambda r: (r.games < PROVISIONAL_GAMES, -r.rating, r.player.handle),
        )[:TOP_PLAYERS]
        result.append(GameLeaders(game_type, get_game(game_type).title, ratings))
    return result
