"""Helpers for the ratings and tournament tests: verified games through the real intake."""

from __future__ import annotations

import contextlib
import datetime
import json
import random
from collections.abc import Iterator

from django.utils import timezone

from deepsea.celery import app as celery_app
from engines.core.simulate import simulate_game
from engines.registry import get_game
from games.models import Game, GameLog, Upload
from games.services.intake import submit_log
from games.services.verification import verify_log
from ratings import services
from ratings.models import Rating, RatingChange

DEEP_VENTS = "deep-vents"
QUICK_BOTS = ("grower", "attacker", "turtle", "random")
RATING_FIELDS = ["player_id", "game_type", "rating", "mu", "sigma", "games", "wins", "last_played"]
CHANGE_FIELDS = [
    "game_id",
    "player_id",
    "played_at",
    "elo_before",
    "elo_after",
    "mu_after",
    "sigma_after",
    "won",
]


def stored_ratings() -> tuple[list, list]:
    """Every Deep Vents rating and rating change as stored, in a fixed order."""
    return (
        list(Rating.objects.order_by("player_id").values_list(*RATING_FIELDS)),
        list(RatingChange.objects.order_by("game_id", "player_id").values_list(*CHANGE_FIELDS)),
    )


def recomputed_ratings() -> tuple[list, list]:
    """What a full recompute stores (and leaves stored)."""
    services.recompute(DEEP_VENTS)
    return stored_ratings()


def deep_vents_log(names: list[str], seed: int, played_at: datetime.datetime) -> dict:
    """A simulated starting-bid Deep Vents log with these player names."""
    game = get_game(DEEP_VENTS)
    rng = random.Random(seed)
    strategies = [rng.choice(QUICK_BOTS) for _ in names]
    log = simulate_game(game, game.ruleset(), strategies, rng, names=names)
    for player in log["players"]:
        del player["strategy"]  # people, not bots: they are matched to Players
    log["meta"] = {"played_at": played_at.isoformat()}
    return log


def verified_game(names: list[str], seed: int, played_at: datetime.datetime | None = None) -> Game:
    """Submit and verify one game between these players (matched by handle)."""
    played_at = played_at or timezone.now()
    stored = submit_log(json.dumps(deep_vents_log(names, seed, played_at)), user=None)
    return verify_log(stored.pk).game


def hours_ago(hours: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(hours=hours)


@contextlib.contextmanager
def eager_tasks() -> Iterator[None]:
    """Tasks run in-process, as in every test (conftest.eager_celery), for module fixtures,
    which run before it: without a worker the games are rated in their transaction."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = previous


def stored_logs(games: list[tuple[float, str]]) -> list[int]:
    """Logs of games between these players (names split by spaces) played so many hours
    ago, stored unverified."""
    upload = Upload.objects.create()
    ids = []
    for seed, (ago, names) in enumerate(games):
        raw = json.dumps(deep_vents_log(names.split(), seed, hours_ago(ago)))
        log = GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=DEEP_VENTS
        )
        ids.append(log.pk)
    return ids
