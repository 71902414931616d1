"""Fixtures of the tournaments tests: Django, services and the browser (django_fixtures.py),
and Harbour Open with round 1 seated, then with one of its two tables played."""

import pytest
from django_fixtures import *  # noqa: F403
from tournament_day_support import PLAYERS, tournament_day

from tournaments.models import Registration, Table
from tournaments.services.seating import seat_next_round


@pytest.fixture
def seated():
    """Harbour Open (tournament_day_support) with every player registered and round 1 seated."""
    harbour = tournament_day()
    for name in PLAYERS:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    seat_next_round(harbour.tournament)
    return harbour


@pytest.fixture
def one_table_played(seated):
    """Table 1 of round 1 finished by hand in seat order; table 2 still playing."""
    first, second = Table.objects.filter(round__tournament=seated.tournament).order_by("number")
    played = list(first.seats.order_by("seat"))
    for place, seat in enumerate(played, start=1):
        seat.hand_rank, seat.hand_score = place, 40 - 10 * place
        seat.save()
    seated.played = [seat.player for seat in played]
    seated.waiting = [seat.player for seat in second.seats.all()]
    return seated
