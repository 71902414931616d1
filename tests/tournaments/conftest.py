"""Fixtures of the tournaments tests: Django, services and the browser (django_fixtures.py),
and Harbour Open with round 1 seated."""

import pytest
from django_fixtures import *  # noqa: F403
from tournament_day_support import PLAYERS, tournament_day

from tournaments.models import Registration
from tournaments.services.seating import seat_next_round


@pytest.fixture
def seated():
    """Harbour Open (tournament_day_support) with every player registered and round 1 seated."""
    harbour = tournament_day()
    for name in PLAYERS:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    seat_next_round(harbour.tournament)
    return harbour
