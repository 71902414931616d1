"""Confirmation on the site and through the API: the pending page, the game page's answer
forms (signed in, or at the table with a player's own password), and /api/confirmations/."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from rest_framework.test import APIClient

from confirmations.models import Confirmation, Review
from games.viewer import event_in_words
from tests.confirmation_support import (
    PASSWORD,
    player_with_login,
    signed_in,
    submitted_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending_game():
    """Ann uploaded a game with Bea and Cid: it waits for both."""
    ann, bea, cid = (player_with_login(name) for name in ("Ann", "Bea", "Cid"))
    game = submitted_game(["Ann", "Bea", "Cid"], ann.user)
    return game, ann, bea, cid


def answer_of(player) -> Confirmation:
    return Confirmation.objects.get(player=player)


def test_the_pending_page_lists_the_game_with_its_replay_one_click_away(client, pending_game):
    game, _, bea, _ = pending_game

    page = signed_in(client, bea.user).get("/account/pending/").content.decode()

    assert f'href="/games/{game.log_id}/#viewer"' in page
    assert f'action="/account/games/{game.log_id}/confirm/"' in page


def test_confirming_from_the_pending_page_empties_it(client, pending_game):
    game, _, bea, _ = pending_game
    signed_in(client, bea.user)

    response = client.post(f"/account/games/{game.log_id}/confirm/", {"next": "/account/pending/"})

    assert response.status_code == 302 and response["Location"] == "/account/pending/"
    assert answer_of(bea).answer == "confirmed"
    assert 'id="nothing-pending"' in client.get("/account/pending/").content.decode()


def test_a_dispute_from_the_game_page_names_the_event_and_the_replay_opens_there(
    client, pending_game
):
    game, _, bea, _ = pending_game
    signed_in(client, bea.user)

    client.post(
        f"/account/games/{game.log_id}/dispute/", {"event": "4", "reason": "I passed there"}
    )
    page = client.get(f"/games/{game.log_id}/").content.decode()

    assert Review.objects.get(log=game.log).status == "disputed"
    assert 'href="#event-4"' in page and "I passed there" in page
    assert "Disputed: staff decide" in page


def test_a_dispute_of_an_event_the_log_lacks_is_refused_with_400(client, pending_game):
    game, _, bea, _ = pending_game
    signed_in(client, bea.user)

    response = client.post(
        f"/account/games/{game.log_id}/dispute/", {"event": "99999", "reason": "wrong"}
    )

    assert response.status_code == 400
    assert "no event 99999" in response.content.decode()
    assert answer_of(bea).answer == "waiting"


def test_a_player_not_asked_is_refused_with_403(client, pending_game):
    game, ann, _, _ = pending_game

    response = signed_in(client, ann.user).post(f"/account/games/{game.log_id}/confirm/")

    assert response.status_code == 403
    assert "this game does not wait for ann" in response.content.decode()
    assert f"log {game.log_id}" not in response.content.decode()


def test_players_at_the_table_confirm_on_the_recording_device_with_their_password(
    client, pending_game
):
    game, ann, bea, cid = pending_game
    signed_in(client, ann.user)  # the device: Ann's session
    url = f"/account/games/{game.log_id}/at-table/"

    client.post(url, {"username": "bea", "password": PASSWORD, "answer": "confirm"})
    client.post(
        url,
        {
            "username": "cid",
            "password": PASSWORD,
            "answer": "dispute",
            "event": "0",
            "reason": "not my seat",
        },
    )

    assert (answer_of(bea).answer, answer_of(bea).at_table) == ("confirmed", True)
    assert (answer_of(cid).answer, answer_of(cid).event) == ("disputed", 0)
    assert client.get("/").context["user"] == ann.user  # the device stays Ann's


def test_a_wrong_password_at_the_table_confirms_nothing_and_counts_as_a_failed_sign_in(
    client, pending_game
):
    game, ann, bea, _ = pending_game
    signed_in(client, ann.user)
    url = f"/account/games/{game.log_id}/at-table/"

    for _ in range(5):
        client.post(url, {"username": "bea", "password": "wrong", "answer": "confirm"})
    failures = AccessAttempt.objects.get(username="bea").failures_since_start
    locked = client.post(url, {"username": "bea", "password": PASSWORD, "answer": "confirm"})

    assert failures == 5
    assert locked.status_code == 429
    assert answer_of(bea).answer == "waiting"


def test_the_game_page_offers_the_asked_player_their_answer_forms(client, pending_game):
    game, ann, bea, _ = pending_game

    asked = signed_in(client, bea.user).get(f"/games/{game.log_id}/").content.decode()
    submitter = signed_in(APIClient(), ann.user).get(f"/games/{game.log_id}/").content.decode()

    assert "Confirm as Bea" in asked
    assert "Confirm as" not in submitter
    assert "answer here with your own password" in submitter


def test_the_api_lists_what_waits_and_takes_answers_idempotently(pending_game):
    game, _, bea, _ = pending_game
    api = APIClient()
    api.force_authenticate(bea.user)

    listed = api.get("/api/confirmations/").json()
    first = api.post(f"/api/confirmations/{game.log_id}/confirm/")
    again = api.post(f"/api/confirmations/{game.log_id}/confirm/")

    assert [item["log"] for item in listed["results"]] == [game.log_id]
    assert listed["results"][0]["game_url"].endswith(f"/games/{game.log_id}/")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert api.get("/api/confirmations/").json()["results"] == []


def test_the_api_takes_a_dispute_and_refuses_a_bad_one_with_the_problem_named(pending_game):
    game, _, bea, cid = pending_game
    api = APIClient()
    api.force_authenticate(cid.user)

    bad = api.post(f"/api/confirmations/{game.log_id}/dispute/", {"event": 99999, "reason": "x"})
    missing = api.post(f"/api/confirmations/{game.log_id}/dispute/", {"event": 2})
    good = api.post(
        f"/api/confirmations/{game.log_id}/dispute/", {"event": 2, "reason": "roll was 5"}
    )
    api.force_authenticate(bea.user)
    confirmed_late = api.post(f"/api/confirmations/{game.log_id}/confirm/")

    assert bad.status_code == 400 and "no event 99999" in bad.json()["detail"]
    assert missing.status_code == 400 and "reason" in missing.json()
    assert good.status_code == 200 and good.json()["event"] == 2
    assert good.json()["step"] == event_in_words(game.log.raw, 2) != ""
    assert confirmed_late.status_code == 200  # Bea may still confirm; staff decide the game
    assert Review.objects.get(log=game.log).status == "disputed"


def test_the_api_asks_for_credentials_and_refuses_players_not_asked(pending_game):
    game, ann, _, _ = pending_game
    api = APIClient()

    anonymous = api.post(f"/api/confirmations/{game.log_id}/confirm/")
    api.force_authenticate(ann.user)
    submitter = api.post(f"/api/confirmations/{game.log_id}/confirm/")

    assert anonymous.status_code in (401, 403)
    assert submitter.status_code == 403
    assert "does not wait for ann" in submitter.json()["detail"]


def test_the_openapi_schema_documents_the_confirmation_endpoints(client):
    schema = client.get("/api/schema/?format=json").json()

    assert {"get"} <= set(schema["paths"]["/api/confirmations/"])
    assert "post" in schema["paths"]["/api/confirmations/{log}/confirm/"]
    dispute = schema["paths"]["/api/confirmations/{log}/dispute/"]["post"]
    assert {"400", "403", "409"} <= set(dispute["responses"])


def test_an_unpublished_game_is_shown_to_the_players_asked_to_confirm_it(client):
    import json

    from games.services.intake import submit_log
    from games.services.verification import verify_log
    from tests.ratings_support import deep_vents_log

    ann, bea = player_with_login("Ann"), player_with_login("Bea")
    outsider = player_with_login("Dee")
    raw = json.dumps(deep_vents_log(["Ann", "Bea", "Guest"], 3, ann.created))
    log = submit_log(raw, user=ann.user, published=False)
    verify_log(log.pk)

    asked = signed_in(client, bea.user).get(f"/games/{log.pk}/")
    stranger = signed_in(APIClient(), outsider.user).get(f"/games/{log.pk}/")
    api = APIClient()
    api.force_authenticate(bea.user)

    assert asked.status_code == 200 and "Confirm as Bea" in asked.content.decode()
    assert stranger.status_code == 404
    assert api.get(f"/api/logs/{log.pk}/").status_code == 200
