"""Who may decide a claim (players.claims) is asked in one query, however many organisers
there are or claims wait: the notice of a new claim reaches its deciders (`deciders`) and
the desk tags the names to decide (`names_to_decide`) without a query an organiser or a
claim. The answers stay may_decide's, asked one by one."""

from __future__ import annotations

import pytest
from claims_support import club, tournament
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import ClaimRequest
from players import claims
from players.models import Player
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def queries(call):
    with CaptureQueriesContext(connection) as captured:
        answer = call()
    return answer, len(captured)


def more_organisers(count: int, django_user_model, at: str = "Club Night") -> None:
    """`count` more accounts organising the tournament the name played in, and as many
    organising one it did not."""
    night = tournament(at, django_user_model.objects.create_user(f"{at}-0"))
    for n in range(1, count):
        night.organisers.add(django_user_model.objects.create_user(f"{at}-{n}"))
    elsewhere = tournament(f"{at} elsewhere", django_user_model.objects.create_user(f"x{at}"))
    for n in range(1, count):
        elsewhere.organisers.add(django_user_model.objects.create_user(f"x{at}-{n}"))
    Registration.objects.create(tournament=night, player=Player.objects.get(handle="sam-smoker"))


def test_the_deciders_of_a_claim_are_found_in_one_query_however_many_organisers(
    django_user_model,
):
    the_club = club()
    claim = ClaimRequest.objects.select_related("player").get(pk=the_club.ask().pk)  # as sent
    users = django_user_model.objects.all()

    few, few_queries = queries(lambda: claims.deciders(claim))
    more_organisers(6, django_user_model, at="Tide Cup")
    many, many_queries = queries(lambda: claims.deciders(claim))

    assert few_queries == many_queries == 1
    assert many == [user for user in users.order_by("pk") if claims.may_decide(user, claim)]
    assert {user.username for user in few} == {"organiser", "referee"}
    assert len(many) == 2 + 6  # the Tide Cup's organisers, not those of the other cup


def test_the_names_to_decide_are_found_in_one_query_however_many_claims_wait(
    django_user_model,
):
    the_club = club()
    organiser = the_club.users["organiser"]
    night = organiser.organised_tournaments.get()
    names = Player.objects.filter(registrations__tournament=night)
    the_club.ask()
    organiser.has_perm("any")  # its permissions read once, as a request would have them

    one, one_queries = queries(lambda: claims.names_to_decide(organiser, names))
    for n in range(5):
        player = Player.objects.create(handle=f"diver-{n}", display_name=f"Diver {n}")
        Registration.objects.create(tournament=night, player=player)
        asking = django_user_model.objects.create_user(f"asking-{n}")
        ClaimRequest.objects.create(user=asking, player=player)
    five, five_queries = queries(lambda: claims.names_to_decide(organiser, names))

    assert one_queries == five_queries == 1
    assert one == {the_club.sam.pk}
    assert five == {
        claim.player_id
        for claim in ClaimRequest.objects.filter(decided_at__isnull=True)
        if claims.may_decide(organiser, claim)
    }
    assert len(five) == 6
    # The name's own claimant decides none of them, however they may decide others.
    assert claims.names_to_decide(the_club.users["claimant"], names) == set()
