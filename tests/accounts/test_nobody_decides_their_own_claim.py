"""Nobody decides their own claim on a name (players.claims.may_decide), whatever else they may
do: an organiser of the tournament the name played in, or a superuser, asking for it is
refused (403) and nothing changes; another organiser of that tournament decides it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import ClaimRequest
from players.models import Player
from tests.claims_support import Club, club
from tests.confirmation_support import PASSWORD
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def the_club() -> Club:
    """The club (claims_support) with a second organiser of Club Night, where Sam played."""
    the_club = club()
    co_organiser = get_user_model().objects.create_user("co-organiser", "", PASSWORD)
    Tournament.objects.get(slug="club-night").organisers.add(co_organiser)
    the_club.users["co-organiser"] = co_organiser
    the_club.users["superuser"] = get_user_model().objects.create_superuser("root", "", PASSWORD)
    return the_club


def asks_for_sam(the_club: Club, role: str) -> ClaimRequest:
    response = the_club.client(role).post("/account/player/", {"name": "Sam Smoker"})
    assert response.status_code == 302, response.content.decode()
    return ClaimRequest.objects.get(user=the_club.users[role])


def stored(the_club: Club, claim: ClaimRequest) -> tuple:
    claim.refresh_from_db()
    the_club.sam.refresh_from_db()
    interim = Player.objects.filter(pk=claim.interim_id).values_list("user_id", flat=True)
    return (claim.decided_at, claim.approved, the_club.sam.user_id, list(interim))


@pytest.mark.parametrize("role", ["organiser", "superuser"])
def test_an_organiser_or_a_superuser_cannot_decide_their_own_claim(the_club, role):
    claim = asks_for_sam(the_club, role)
    before = stored(the_club, claim)

    for action in ("approve", "refuse"):
        response = the_club.client(role).post(f"/account/claims/{claim.pk}/{action}/")
        assert response.status_code == 403, action
        assert "never the account asking" in response.content.decode()

    assert stored(the_club, claim) == before
    assert claim.is_open and the_club.sam.user is None


def test_another_organiser_of_the_tournament_decides_an_organisers_claim(the_club):
    claim = asks_for_sam(the_club, "organiser")

    response = the_club.client("co-organiser").post(f"/account/claims/{claim.pk}/approve/")

    assert response.status_code == 302
    claim.refresh_from_db()
    the_club.sam.refresh_from_db()
    assert claim.approved is True and claim.decided_by == the_club.users["co-organiser"]
    assert the_club.sam.user == the_club.users["organiser"]


def test_an_organisers_own_claim_is_not_on_their_approvers_page_but_on_the_others(the_club):
    claim = asks_for_sam(the_club, "organiser")
    approve = f'formaction="/account/claims/{claim.pk}/approve/"'

    own = the_club.client("organiser").get("/account/claims/").content.decode()
    other = the_club.client("co-organiser").get("/account/claims/").content.decode()

    assert approve not in own
    assert approve in other
