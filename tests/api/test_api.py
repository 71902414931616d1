"""The API: submit a log or a batch with a token, follow the verdict, list and filter games."""

import pytest
from django.test import Client
from games_support import human_log, jsonl, simulated_log, sitting_as, submit, text
from rest_framework.authtoken.models import Token

from games.models import Source

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


@pytest.fixture
def token_client(django_user_model):
    user = sitting_as(django_user_model.objects.create_user("api-user"))
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


def test_a_log_posted_with_a_token_is_queued_then_verified(
    token_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client.post(
            "/api/logs/", data=text(human_log(seed=70)), content_type="application/json"
        )

    assert response.status_code == 201
    assert response.json()["duplicate"] is False
    detail = token_client.get(f"/api/logs/{response.json()['id']}/").json()
    assert detail["status"] == "verified"
    assert detail["error"] is None
    game = token_client.get(f"/api/games/{detail['game_id']}/").json()
    assert [seat["player"] for seat in game["seats"]] == ["marina-abyss", "nemo", "coral"]
    # Deep Dive's engine summarises no seat (a Deep Vents seat has its turn order and bid).
    assert [seat["summary"] for seat in game["seats"]] == [None, None, None]
    assert {(seat["turn_order"], seat["bid"]) for seat in game["seats"]} == {(None, None)}


def test_posting_the_same_log_again_answers_200_with_the_stored_log(token_client):
    body = text(human_log(seed=71))
    first = token_client.post("/api/logs/", data=body, content_type="application/json")
    again = token_client.post("/api/logs/", data=body, content_type="application/json")

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["duplicate"] is True


def test_a_batch_file_reports_its_progress(token_client, django_capture_on_commit_callbacks):
    batch = jsonl(*(human_log(seed=seed) for seed in range(72, 76)))
    from django.core.files.uploadedfile import SimpleUploadedFile

    with django_capture_on_commit_callbacks(execute=True):
        response = token_client.post(
            "/api/uploads/", {"file": SimpleUploadedFile("games.jsonl", batch)}
        )

    assert response.status_code == 202
    assert response["Location"].endswith(f"/api/uploads/{response.json()['id']}/")
    progress = token_client.get(f"/api/uploads/{response.json()['id']}/").json()
    assert (progress["batch_state"], progress["lines_read"]) == ("read", 4)
    assert progress["total"] == 4
    assert progress["counts"]["verified"] == 4
    assert progress["done"] is True
    assert progress["filename"] == "games.jsonl"


def test_games_are_filtered_by_game_player_source_and_date(submit):
    submit(text(human_log(seed=77, names=("Kelp", "Angler"))))
    submit(text(simulated_log("deep-sea-adventure", seed=78)), source=Source.SIMULATED)
    dated = human_log(seed=79, names=("Kelp", "Coral"))
    dated["meta"] = {"date": "2025-01-02"}
    submit(text(dated))
    client = Client()

    def ids(query: str) -> list[int]:
        return sorted(game["log"] for game in client.get(f"/api/games/?{query}").json()["results"])

    assert len(ids("")) == 3
    assert len(ids("game=deep-dive")) == 2
    assert len(ids("game=deep-sea-adventure&source=simulated")) == 1
    assert len(ids("player=kelp")) == 2
    assert len(ids("player=kelp&date_before=2025-12-31")) == 1
    assert len(ids("player=coral&date_after=2025-01-01&date_before=2025-01-02")) == 1


def test_a_deep_vents_game_gives_each_seat_its_turn_order_and_bid(submit):
    submit(text(simulated_log("deep-vents", seed=82, players=3)), source=Source.SIMULATED)

    (game,) = Client().get("/api/games/?game=deep-vents").json()["results"]

    summaries = [seat["summary"] for seat in game["seats"]]
    assert sorted(summary["turn"] for summary in summaries) == [1, 2, 3]  # DV-3
    assert any("bid" in summary for summary in summaries)
    # The fields the API had before the summary still read the same values.
    for seat in game["seats"]:
        assert (seat["turn_order"], seat["bid"]) == (
            seat["summary"]["turn"],
            seat["summary"].get("bid"),
        )


def test_the_schema_documents_the_seat_summary():
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    summary = schema.json()["components"]["schemas"]["Seat"]["properties"]["summary"]
    assert summary["additionalProperties"] == {"type": "integer"}
    assert summary["nullable"] is True
    assert "turn" in summary["description"]
    seat = schema.json()["components"]["schemas"]["Seat"]["properties"]
    assert seat["turn_order"]["type"] == seat["bid"]["type"] == "integer"
    assert seat["turn_order"]["nullable"] is seat["bid"]["nullable"] is True


def test_logs_are_filtered_by_status(submit):
    submit(text(human_log(seed=80)))
    broken = human_log(seed=81)
    broken["result"]["scores"][0] += 5
    submit(text(broken))

    rejected = Client().get("/api/logs/?status=rejected").json()["results"]

    assert len(rejected) == 1
    assert rejected[0]["error"]["kind"] == "result-mismatch"


def test_the_schema_and_offline_swagger_ui_are_served():
    client = Client()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    docs = client.get("/api/docs/")

    assert schema.status_code == 200
    assert "/api/logs/" in schema.json()["paths"]
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
    assert b"cdn" not in docs.content.lower()
