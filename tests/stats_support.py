"""Helpers for the statistics tests: simulated games verified through the real intake path."""

from __future__ import annotations

import json

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import Game, Source
from games.services.intake import submit_batch


def verified_games(
    capture,
    game_id: str,
    players: int,
    games: int,
    seed: str = "stats",
    ruleset=None,
    source: str = Source.SIMULATED,
) -> list[Game]:
    """Play bot games and submit them as one batch (simulated unless `source` says); eager
    Celery verifies each once the batch commits (`capture` is pytest-django's
    django_capture_on_commit_callbacks)."""
    game = get_game(game_id)
    logs = simulate(game, game.ruleset(ruleset), players, games, seed)
    with capture(execute=True):
        upload = submit_batch((json.dumps(log).encode() for log in logs), user=None, source=source)
    return list(Game.objects.filter(log__upload=upload).order_by("pk"))


def seat_lines_of(game: Game) -> list:
    """The game's stored seat lines, unpacked (none when it is not counted)."""
    from stats.models import SeatLines
    from stats.services import seat_packing

    stored = SeatLines.objects.filter(game=game).first()
    if stored is None:
        return []
    return seat_packing.unpack(game.pk, stored.month, bytes(stored.packed))[0]


def counted_in_statistics(games: list[Game]) -> None:
    """What game_counted's statistics receiver does for these stored games (their seat
    lines, the players' seat tally), with no facts to replay: games stored row by row
    (tests.games_support.stored_game) count in the statistics as a verified game does."""
    from stats.services.aggregate import add_games

    for game in games:
        game.facts = []
    add_games(games)
