"""Who may submit what (games.services.submission_rights): staff any game, anyone else only
games in which their own player sits; a refusal is a 403 naming the problem and stores
nothing, and in a batch it is that line's error, the other lines kept."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django_fixtures import signed_in_as
from games_support import human_log, jsonl, sitting_as, text

from games.models import GameLog, Upload

pytestmark = pytest.mark.django_db

NOT_SEATED = "you may submit only games you sit in: your player Kelp (@kelp) is not one of"
RECORDED_FIELDS = ("game", "ruleset", "players", "setup", "events")


@pytest.fixture
def kelp(django_user_model) -> Client:
    """A player whose name is in none of human_log's games."""
    return signed_in_as(sitting_as(django_user_model.objects.create_user("kelp-user"), "Kelp"))


@pytest.fixture
def nemo(django_user_model) -> Client:
    """A player in every game of human_log (Marina Abyss, Nemo, Coral)."""
    return signed_in_as(sitting_as(django_user_model.objects.create_user("nemo-user"), "Nemo"))


def post_single(client: Client, log: dict) -> tuple[int, str]:
    response = client.post("/api/logs/", data=text(log), content_type="application/json")
    return response.status_code, response.json().get("detail", "")


def post_upload_page(client: Client, log: dict) -> tuple[int, str]:
    response = client.post("/upload/", {"log": text(log)})
    return response.status_code, response.content.decode()


def post_record_page(client: Client, log: dict) -> tuple[int, str]:
    recording = {field: log[field] for field in RECORDED_FIELDS}
    response = client.post("/record/save/", json.dumps(recording), "application/json")
    return response.status_code, response.json().get("error", {}).get("text", "")


ROUTES = [post_single, post_upload_page, post_record_page]


@pytest.mark.parametrize("route", ROUTES)
def test_a_player_cannot_submit_a_game_they_do_not_sit_in(kelp, route):
    status, message = route(kelp, human_log(seed=11))

    assert status == 403
    assert NOT_SEATED in message
    assert not GameLog.objects.exists()


@pytest.mark.parametrize("route", ROUTES)
def test_a_player_submits_a_game_they_sit_in(nemo, route):
    status, _ = route(nemo, human_log(seed=12))

    assert status in (201, 302)
    assert GameLog.objects.count() == 1


@pytest.mark.parametrize("route", ROUTES)
def test_their_name_is_matched_on_its_canonical_form(nemo, route):
    status, _ = route(nemo, human_log(seed=13, names=("Marina Abyss", " NEMO ", "Coral")))

    assert status in (201, 302)


@pytest.mark.parametrize("route", ROUTES)
def test_an_account_without_a_player_name_is_told_to_claim_one(django_user_model, route):
    client = signed_in_as(django_user_model.objects.create_user("newcomer"))

    status, message = route(client, human_log(seed=14))

    assert status == 403
    assert "claim yours first" in message
    assert not GameLog.objects.exists()


@pytest.mark.parametrize("route", ROUTES)
def test_staff_may_submit_any_game(django_user_model, route):
    staff = signed_in_as(django_user_model.objects.create_user("referee", is_staff=True))

    status, _ = route(staff, human_log(seed=15))

    assert status in (201, 302)


def test_a_batch_line_of_a_game_they_do_not_sit_in_is_a_line_error_the_others_kept(
    nemo, django_capture_on_commit_callbacks
):
    batch = jsonl(
        human_log(seed=16),
        human_log(seed=17, names=("Pearl", "Squid")),
        human_log(seed=18, names=("Nemo", "Yeti")),
    )

    with django_capture_on_commit_callbacks(execute=True):  # a worker reads the batch
        response = nemo.post("/api/uploads/", data=batch, content_type="application/jsonl")

    assert response.status_code == 202
    errors = Upload.objects.get(pk=response.json()["id"]).line_errors
    assert [error["line"] for error in errors] == [2]
    assert "you may submit only games you sit in: your player Nemo (@nemo)" in errors[0]["error"]
    assert sorted(GameLog.objects.values_list("line", flat=True)) == [1, 3]


def test_a_batch_on_the_upload_page_keeps_the_lines_they_sit_in(
    kelp, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    batch = jsonl(human_log(seed=19), human_log(seed=20, names=("Kelp", "Yeti")))

    with django_capture_on_commit_callbacks(execute=True):  # a worker reads the batch
        response = kelp.post("/upload/", {"file": SimpleUploadedFile("night.jsonl", batch)})

    assert response.status_code == 302
    assert list(GameLog.objects.values_list("line", flat=True)) == [2]
