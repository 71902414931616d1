"""Fixtures of the browser tests: Django, services and the browser (django_fixtures.py), and
simulated games of every game (for the stats pages' charts)."""

import json

import pytest
from django_fixtures import *  # noqa: F403

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import Source
from games.services.intake import submit_batch


@pytest.fixture
def simulated_games_of_every_game() -> None:
    """Four simulated games of each game (Deep Vents at three and four players), verified."""
    for game_id, players in (
        ("deep-vents", 4),
        ("deep-vents", 3),
        ("deep-sea-adventure", 3),
        ("deep-dive", 3),
    ):
        game = get_game(game_id)
        logs = simulate(game, game.ruleset(None), players, 4, seed=f"pages-{game_id}-{players}")
        submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)
