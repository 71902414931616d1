"""Fixtures of the browser tests: Django, services and the browser (django_fixtures.py), and
the simulated games the chart tests draw."""

import json

import pytest
from django_fixtures import *  # noqa: F403

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import Source
from games.services.intake import submit_batch


@pytest.fixture
def games(django_db_blocker) -> None:
    """Six simulated Deep Vents games of three players, every other one with a seat no bot
    played: the head-to-head's longest row name, "People (no bot named)", pushes its colour
    bar (and the bar's centred title) to the right."""
    game = get_game("deep-vents")
    logs = list(simulate(game, game.ruleset(None), 3, 6, seed="titles"))
    for log in logs[::2]:
        del log["players"][0]["strategy"]
    submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)
