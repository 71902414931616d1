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
from games.models import Game
from games.services.intake import submit_log
from games.services.verification import verify_log

DEEP_VENTS = "deep-vents"
QUICK_BOTS = ("grower", "attacker", "turtle", "random")


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
