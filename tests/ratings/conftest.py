"""Fixtures of the ratings tests: Django, services and the browser (django_fixtures.py)."""

import pytest
from django_fixtures import *  # noqa: F403

from games.services import verification
from stats.services import bands


@pytest.fixture
def elo_read_by_bands(monkeypatch) -> dict[tuple[int, int], float]:
    """(game, player) -> the Elo going into the game that the statistics' bands read
    (stats.services.bands.elo_going_into), filled as they read it; games verified in
    groups of 4."""
    read: dict[tuple[int, int], float] = {}
    elo_going_into = bands.elo_going_into

    def reading(games, seats):
        going_into = elo_going_into(games, seats)
        read.update(going_into)
        return going_into

    monkeypatch.setattr(bands, "elo_going_into", reading)
    monkeypatch.setattr(verification, "GROUP_SIZE", 4)
    return read
