"""Demo games for `manage.py load_demo`: bot games of every game type, verified through the
normal path (intake, then the verification task; eager when no broker is configured)."""

from __future__ import annotations

from typing import TextIO

from django.core.management import call_command

from engines.registry import GAMES

GAMES_PER_TYPE = 5


def load(stdout: TextIO) -> None:
    """Submit a few simulated games of each game type (idempotent: the same seeds give the
    same logs, which are then recognised as already stored)."""
    for game_id in GAMES:
        call_command(
            "simulate", game_id, games=GAMES_PER_TYPE, players=3, seed="demo", stdout=stdout
        )
