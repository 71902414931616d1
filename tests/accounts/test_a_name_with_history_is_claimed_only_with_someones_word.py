"""Claiming a name: a new one is yours at once; one with verified games, ratings or
tournament entries waits for staff or an organiser of a tournament it played in, the account
playing meanwhile under a name of its own whose games join the claimed name on approval."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import ClaimRequest
from games.models import GameSeat
from games.names import game_name
from players.models import Player
from players.signals import claim_decided, claim_requested
from ratings.models import Rating
from tests.claims_support import Club, club
from tests.confirmation_support import (
    PASSWORD,
    submitted_game,
)
from tests.ratings_support import deep_vents_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def the_club() -> Club:
    return club()


@pytest.fixture
def signals():
    """Every claim signal sent during the test, as (name, kwargs)."""
    heard: list[tuple[str, dict]] = []

    def requested(sender, **kwargs):
        heard.append(("requested", kwargs))

    def decided(sender, **kwargs):
        heard.append(("decided", kwargs))

    claim_requested.connect(requested)
    claim_decided.connect(decided)
    yield heard
    claim_requested.disconnect(requested)
    claim_decided.disconnect(decided)


def test_a_new_name_is_claimed_at_once(client, signals):
    user = get_user_model().objects.create_user("newcomer", "", PASSWORD)
    client.force_login(user)
    before = timezone.now()

    response = client.post("/account/player/", {"name": "Deep Newcomer"})

    assert response.status_code == 302
    mine = Player.objects.get(user=user)
    assert mine.display_name == "Deep Newcomer"
    assert before <= mine.claimed_at <= timezone.now()
    assert not ClaimRequest.objects.exists() and signals == []


def test_once_the_name_is_theirs_the_page_says_where_to_go_next(client):
    client.force_login(get_user_model().objects.create_user("newcomer", "", PASSWORD))

    page = client.post("/account/player/", {"name": "Deep Newcomer"}, follow=True)
    next_steps = page.content.decode().split('id="what-next"')[1].split("</section>")[0]

    for link in ('href="/tournaments/"', 'href="/record/"', 'href="/upload/"'):
        assert link in next_steps
    assert f'href="{Player.objects.get().get_absolute_url()}"' in next_steps


def test_a_name_nobody_played_under_is_claimed_at_once_even_if_it_exists(client):
    Player.objects.create(handle="quiet-one", display_name="Quiet One")  # no games, no entries
    user = get_user_model().objects.create_user("quiet", "", PASSWORD)
    client.force_login(user)

    client.post("/account/player/", {"name": "quiet one"})

    assert Player.objects.get(handle="quiet-one").user == user


def test_a_name_with_history_waits_and_the_account_plays_under_its_own_meanwhile(the_club, signals):
    claim = the_club.ask()

    the_club.sam.refresh_from_db()
    assert the_club.sam.user is None  # not his yet
    assert claim.is_open and claim.player == the_club.sam
    interim = Player.objects.get(user=the_club.users["claimant"])
    assert interim.display_name == "Sam Smoker (2)" and claim.interim == interim
    assert [(name, kwargs["claim"].pk) for name, kwargs in signals] == [("requested", claim.pk)]
    page = the_club.client("claimant").get("/account/player/").content.decode()
    assert "You asked for" in page and "Sam Smoker (2)" in page


def test_the_account_may_pick_the_name_it_plays_under_meanwhile(the_club):
    response = the_club.client("claimant").post(
        "/account/player/", {"name": "Sam Smoker", "interim": "Smoky"}
    )

    assert response.status_code == 302
    assert Player.objects.get(user=the_club.users["claimant"]).display_name == "Smoky"


def test_a_refused_claim_form_keeps_what_was_typed_and_says_why(the_club):
    response = the_club.client("claimant").post(
        "/account/player/", {"name": "Sam Smoker", "interim": "Sam Smoker"}
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert "meanwhile: Sam Smoker is somebody&#x27;s name" in page
    assert 'name="interim" id="id_interim" value="Sam Smoker"' in page
    assert not ClaimRequest.objects.exists()


def test_while_waiting_the_claimant_can_neither_upload_nor_dispute_as_the_name(the_club):
    the_club.ask()
    sams_game = json.dumps(deep_vents_log(["Sam Smoker", "Guest"], 5, timezone.now()))
    with_kelp = submitted_game(["Sam Smoker", "Kelp"], the_club.users["other player"], seed=6)

    upload = the_club.client("claimant").post(
        "/api/logs/", sams_game, content_type="application/json"
    )
    dispute = the_club.client("claimant").post(
        f"/account/games/{with_kelp.log_id}/dispute/", {"event": "1", "reason": "not so"}
    )

    assert upload.status_code == 403
    assert dispute.status_code == 403
    with_kelp.refresh_from_db()
    assert with_kelp.counts


def test_an_organiser_of_its_tournament_approves_and_the_interim_games_join_the_name(
    the_club, signals
):
    claim = the_club.ask()
    interim = Player.objects.get(user=the_club.users["claimant"])
    submitted_game([interim.display_name, "Guest"], the_club.users["claimant"], seed=2)
    seats_before = GameSeat.objects.filter(player=the_club.sam).count()
    interim_seats = GameSeat.objects.filter(player=interim).count()
    assert (seats_before, interim_seats) == (1, 1)

    response = the_club.client("organiser").post(
        f"/account/claims/{claim.pk}/approve/", {"note": "I know Sam"}
    )

    assert response.status_code == 302
    the_club.sam.refresh_from_db()
    assert the_club.sam.user == the_club.users["claimant"]
    assert the_club.sam.claimed_at is not None
    assert not Player.objects.filter(pk=interim.pk).exists()
    assert GameSeat.objects.filter(player=the_club.sam).count() == seats_before + interim_seats
    assert Rating.objects.get(player=the_club.sam, game_type="deep-vents").games == 2
    claim.refresh_from_db()
    assert (claim.approved, claim.decided_by, claim.note) == (
        True,
        the_club.users["organiser"],
        "I know Sam",
    )
    decided = [kwargs for name, kwargs in signals if name == "decided"]
    assert [(d["claim"].pk, d["approved"], d["decided_by"]) for d in decided] == [
        (claim.pk, True, the_club.users["organiser"])
    ]


@pytest.mark.parametrize(
    "role",
    ["anonymous", "claimant", "other player", "other organiser", "staff without the permission"],
)
def test_nobody_else_decides_a_claim(the_club, role):
    claim = the_club.ask()

    for action in ("approve", "refuse"):
        response = the_club.client(role).post(f"/account/claims/{claim.pk}/{action}/")
        assert response.status_code == 403, (role, action)

    claim.refresh_from_db()
    the_club.sam.refresh_from_db()
    assert claim.is_open and the_club.sam.user is None


def test_staff_with_the_permission_refuse_and_the_account_keeps_its_own_name(the_club, signals):
    claim = the_club.ask()
    interim = Player.objects.get(user=the_club.users["claimant"])

    response = the_club.client("staff").post(f"/account/claims/{claim.pk}/refuse/")

    assert response.status_code == 302
    claim.refresh_from_db()
    the_club.sam.refresh_from_db()
    assert claim.approved is False and the_club.sam.user is None
    assert Player.objects.get(user=the_club.users["claimant"]) == interim
    assert [(n, k["approved"]) for n, k in signals if n == "decided"] == [("decided", False)]
    page = the_club.client("claimant").get("/account/player/").content.decode()
    assert "Sam Smoker: refused" in page


def test_a_decided_claim_is_not_decided_again(the_club):
    claim = the_club.ask()
    the_club.client("organiser").post(f"/account/claims/{claim.pk}/refuse/")

    response = the_club.client("staff").post(f"/account/claims/{claim.pk}/approve/")

    assert response.status_code == 409
    assert "was refused already" in response.content.decode()
    the_club.sam.refresh_from_db()
    assert the_club.sam.user is None


def test_one_request_at_a_time(the_club):
    the_club.ask()
    Player.objects.create(handle="other-name", display_name="Other Name")

    response = the_club.client("claimant").post("/account/player/", {"name": "Other Name"})

    assert response.status_code == 400
    assert "you asked for Sam Smoker" in response.content.decode()


def test_the_claim_page_lists_no_names_with_history(the_club):
    Player.objects.create(handle="quiet-one", display_name="Quiet One")

    page = the_club.client("claimant").get("/account/player/").content.decode()

    assert "Sam Smoker" not in page and "Quiet One" not in page and "Kelp" not in page
    assert "<datalist" not in page and "<option" not in page


def test_the_approvers_page_lists_what_they_may_decide_with_games_and_tournaments(the_club):
    claim = the_club.ask()
    sams_game = GameSeat.objects.get(player=the_club.sam).game

    organiser = the_club.client("organiser").get("/account/claims/").content.decode()
    other = the_club.client("other organiser").get("/account/claims/").content.decode()

    article = re.search(rf'<article class="claim-request" id="claim-{claim.pk}">.*?</article>',
                        organiser, re.S).group(0)  # fmt: skip
    assert "Club Night" in article and "Other Night" not in article
    assert (
        f'href="/games/{sams_game.log_id}/">Deep Vents, {sams_game.played_at:%-d %b %Y}</a>'
        in article
    )
    assert f"#{sams_game.log_id}" not in article
    assert "1 verified game " in article and "newcomer" in article
    assert "No claim waits for your decision" in other


def test_the_name_page_shows_unclaimed_awaiting_approval_and_claimed(the_club, client):
    def state() -> tuple[str, str]:
        page = client.get("/players/sam-smoker/").content.decode()
        found = re.search(r'<p id="claim-status" data-state="([^"]+)">(.*?)</p>', page, re.S)
        return found.group(1), found.group(2)

    assert state()[0] == "unclaimed"
    claim = the_club.ask()
    assert state() == (
        "awaiting approval",
        f"Awaiting approval: an account asked on {claim.created:%Y-%m-%d} to claim this name; "
        "staff or an organiser of a tournament it played in decide.",
    )
    the_club.client("organiser").post(f"/account/claims/{claim.pk}/approve/")
    the_club.sam.refresh_from_db()
    assert state() == (
        "claimed",
        f"Claimed by its player since {the_club.sam.claimed_at:%Y-%m-%d}.",
    )


def test_the_admin_lists_requests_for_their_deciders_and_approves_by_action(the_club):
    claim = the_club.ask()

    listed = the_club.client("organiser").get("/admin/accounts/claimrequest/").content.decode()
    elsewhere = the_club.client("other organiser").get("/admin/accounts/claimrequest/")
    the_club.client("organiser").post(
        "/admin/accounts/claimrequest/",
        {"action": "approve_claims", "_selected_action": [claim.pk]},
    )

    assert "Sam Smoker" in listed and "Club Night" in listed and "1 games" in listed
    assert "Sam Smoker" not in elsewhere.content.decode()
    claim.refresh_from_db()
    assert claim.approved is True and claim.decided_by == the_club.users["organiser"]


def test_the_admin_names_a_claimed_names_games_in_words_not_by_their_log_numbers(the_club):
    claim = the_club.ask()
    sams_game = GameSeat.objects.get(player=the_club.sam).game

    page = the_club.client("organiser").get(f"/admin/accounts/claimrequest/{claim.pk}/change/")

    assert (
        f'<a href="/games/{sams_game.log_id}/">{game_name(sams_game)}</a>' in page.content.decode()
    )
    assert f"#{sams_game.log_id}<" not in page.content.decode()


def test_an_account_with_a_name_of_its_own_asks_and_its_games_join_on_approval(the_club):
    kelp = Player.objects.get(handle="kelp")
    kelps_game = submitted_game(["Kelp", "Guest"], kelp.user, seed=3)
    client = the_club.client("other player")

    client.post("/account/player/", {"name": "Sam Smoker"})
    claim = ClaimRequest.objects.get(user=kelp.user)
    assert claim.interim == kelp  # no new name: it plays as Kelp meanwhile
    the_club.client("staff").post(f"/account/claims/{claim.pk}/approve/")

    assert not Player.objects.filter(pk=kelp.pk).exists()
    assert kelps_game.seats.get(name="Kelp").player == Player.objects.get(user=kelp.user)
    assert Player.objects.get(user=kelp.user) == the_club.sam


def test_approving_one_account_refuses_the_others_asking_for_the_same_name(the_club, signals):
    first = the_club.ask()
    the_club.client("other player").post("/account/player/", {"name": "Sam Smoker"})
    second = ClaimRequest.objects.get(user=the_club.users["other player"])

    the_club.client("organiser").post(f"/account/claims/{second.pk}/approve/")

    first.refresh_from_db()
    assert (first.approved, first.note) == (False, "Sam Smoker went to another account")
    assert sorted((k["claim"].pk, k["approved"]) for n, k in signals if n == "decided") == [
        (first.pk, False),
        (second.pk, True),
    ]
    refused = the_club.client("staff").post(f"/account/claims/{first.pk}/approve/")
    assert refused.status_code == 409


def test_a_name_that_played_against_the_claimant_is_not_merged_into_it(the_club):
    claim = the_club.ask()
    interim = Player.objects.get(user=the_club.users["claimant"])
    both = submitted_game(["Sam Smoker", interim.display_name], the_club.users["claimant"], seed=4)

    response = the_club.client("organiser").post(f"/account/claims/{claim.pk}/approve/")

    assert response.status_code == 409
    page = response.content.decode()
    assert f"sat at the game “{both}” together: they are two people" in page
    assert f"#{both.log_id}" not in page
    claim.refresh_from_db()
    the_club.sam.refresh_from_db()
    assert claim.is_open and the_club.sam.user is None
    assert Player.objects.filter(pk=interim.pk).exists()


def test_the_organisers_desk_marks_a_name_with_a_claim_to_decide(the_club):
    the_club.ask()
    desk = the_club.client("organiser").get("/tournaments/club-night/desk/")

    row = re.search(r'<tr data-handle="sam-smoker">.*?</tr>', desk.content.decode(), re.S)
    assert desk.status_code == 200
    assert 'class="tag claim-waiting" href="/account/claims/"' in row.group(0)
