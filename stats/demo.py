"""Demo bot games for `manage.py load_demo`: a few of every game type (source "simulated"),
for the statistics pages. Idempotent: a game type already simulated with the demo seed is
skipped."""

from __future__ import annotations

from typing import TextIO

from django.core.management import call_command

from engines.registry import GAMES
from stats.models import SimulationBatch

GAMES_PER_TYPE = 5
DEMO_SEED = "demo"


def load(stdout: TextIO) -> None:
    for game_id in GAMES:
        if SimulationBatch.objects.filter(game_type=game_id, seed=DEMO_SEED).exists():
            continue
        call_command(
            "simulate", game_id, games=GAMES_PER_TYPE, players=3, seed=DEMO_SEED, stdout=stdout
        )
