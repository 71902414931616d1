"""Demo bot games for `manage.py load_demo`: a few of every game type (source "simulated"),
for the statistics pages. Idempotent: a game type already simulated with the demo seed is
skipped."""

from __future__ import annotations

from typing import TextIO

from engines.registry import GAMES
from stats.models import SimulationBatch
from stats.services import simulation

GAMES_PER_TYPE = 5
DEMO_SEED = "demo"


def load(stdout: TextIO) -> None:
    """Queue a small bot batch of every game not simulated yet; they are played and verified
    once load_demo's transaction commits (by the worker, or in-process with no broker)."""
    queued = []
    for game_id in GAMES:
        if SimulationBatch.objects.filter(game_type=game_id, seed=DEMO_SEED).exists():
            continue
        batch = simulation.create_batch(
            game_id=game_id,
            ruleset=simulation.default_ruleset(game_id),
            players=3,
            games=GAMES_PER_TYPE,
            seed=DEMO_SEED,
        )
        simulation.launch(batch)
        queued.append(game_id)
    if queued:
        stdout.write(
            f"Demo bot games: {GAMES_PER_TYPE} of each of {len(queued)} games for the "
            "statistics pages (simulation lab batches).\n"
        )
