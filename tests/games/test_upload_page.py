"""The upload page: a signed-in user sends a file or a pasted log, then watches the
verdicts arrive on the upload's page (a status partial polled with htmx, progress bars)."""

import datetime
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from games_support import human_log, jsonl, sitting_as, text

from games.models import GameLog, Upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(django_user_model) -> Client:
    """A test client signed in as a player, CSRF checked as a browser's would be. Not named
    `browser`: that is Chromium's fixture (tests/django_fixtures.py), and a test using a
    fixture of that name is run as a browser test (first, and again after a host's network
    change) by tests/conftest.py."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(sitting_as(django_user_model.objects.create_user("page-user")))
    return client


def csrf_token(client: Client) -> str:
    page = client.get("/upload/")
    assert page.status_code == 200
    return page.cookies["csrftoken"].value


def test_a_batch_file_redirects_to_its_upload_page_with_progress(
    signed_in, django_capture_on_commit_callbacks
):
    token = csrf_token(signed_in)
    batch = jsonl(human_log(seed=110), "oops", human_log(seed=111))

    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in.post(
            "/upload/",
            {"file": SimpleUploadedFile("night.jsonl", batch), "published": "on",
             "csrfmiddlewaretoken": token},
        )  # fmt: skip

    upload = Upload.objects.get()
    assert response.status_code == 302
    assert response["Location"] == upload.get_absolute_url()
    page = signed_in.get(upload.get_absolute_url())
    assert b"<progress" in page.content
    assert b"htmx" in page.content
    assert b"line 2:" in page.content
    status = signed_in.get(f"/uploads/{upload.pk}/status/", headers={"HX-Request": "true"})
    assert b"2 of 2 logs have a verdict" in status.content
    assert b"hx-trigger" not in status.content  # done: polling stops
    assert status.content.count(b'<td class="status">verified</td>') == 2


def test_the_upload_names_each_game_in_words_and_a_log_without_one_by_its_game_and_line(
    signed_in, django_capture_on_commit_callbacks
):
    token = csrf_token(signed_in)
    good, bad, again = human_log(seed=120), human_log(seed=121), human_log(seed=122)
    bad["result"] = {"scores": [999, 0, 0], "winners": [0]}
    with django_capture_on_commit_callbacks(execute=True):
        signed_in.post("/upload/", {"log": text(again), "csrfmiddlewaretoken": token})
        signed_in.post(
            "/upload/",
            {"file": SimpleUploadedFile("night.jsonl", jsonl(good, bad, text(again))),
             "csrfmiddlewaretoken": token},
        )  # fmt: skip

    upload = Upload.objects.get(filename="night.jsonl")
    status = signed_in.get(f"/uploads/{upload.pk}/status/").content.decode()
    verified = GameLog.objects.get(upload=upload, status="verified")
    rejected = GameLog.objects.get(upload=upload, status="rejected")
    stored_before = GameLog.objects.exclude(upload=upload).get()
    played = verified.game.played_at

    assert (
        f'<a href="/games/{verified.pk}/">Deep Dive, {played:%-d %b %Y}: Marina Abyss, Nemo, '
        "Coral</a>"
    ) in status
    assert f'<a href="/games/{rejected.pk}/">Deep Dive game on line 2</a>' in status
    assert f'<a href="/games/{stored_before.pk}/">the same game, stored before</a>' in status
    assert f"#{verified.pk}<" not in status and f"log {verified.pk}" not in status
    assert f"log {rejected.pk}" not in status


def test_a_refused_move_in_a_batch_is_told_by_its_players_name_never_event_and_seat(
    signed_in, django_capture_on_commit_callbacks
):
    good, bad = human_log(seed=140), human_log(seed=141)
    bad["events"][1]["seat"] = 0  # Marina dives first, Nemo second (DD-2)
    with django_capture_on_commit_callbacks(execute=True):
        signed_in.post(
            "/upload/",
            {"file": SimpleUploadedFile("night.jsonl", jsonl(good, bad)),
             "csrfmiddlewaretoken": csrf_token(signed_in)},
        )  # fmt: skip

    upload = Upload.objects.get(filename="night.jsonl")
    status = signed_in.get(f"/uploads/{upload.pk}/status/").content.decode()
    rejected = GameLog.objects.get(upload=upload, status="rejected")

    assert rejected.error["text"].startswith("event 1 (seat 1): ")  # the API's, as it was
    assert (
        '<td class="error">Marina Abyss: it is not Marina Abyss&#x27;s turn: Nemo must roll'
    ) in status
    assert not re.search(r"event \d|seat \d", status)


def test_an_upload_without_a_file_is_named_by_when_it_was_sent_not_its_number(
    signed_in, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        signed_in.post(
            "/upload/",
            {"log": text(human_log(seed=130)), "csrfmiddlewaretoken": csrf_token(signed_in)},
        )
    upload = Upload.objects.get()
    Upload.objects.filter(pk=upload.pk).update(
        created=datetime.datetime(2026, 12, 3, 19, 30, tzinfo=datetime.UTC)
    )

    page = signed_in.get(upload.get_absolute_url()).content.decode()
    listed = signed_in.get("/uploads/").content.decode()

    heading = re.search(r"<h1>(.*?)</h1>", page, re.S)[1]
    assert heading == "Upload of 3 Dec 2026, 19:30"  # TIME_ZONE is UTC
    assert f'">{heading}</a>' in listed
    assert f"upload {upload.pk}" not in page + listed


def test_a_pasted_log_is_queued_and_its_status_can_be_polled(signed_in):
    token = csrf_token(signed_in)

    response = signed_in.post(
        "/upload/", {"log": text(human_log(seed=112)), "csrfmiddlewaretoken": token}
    )

    upload = Upload.objects.get()
    assert response.status_code == 302
    assert upload.published is False  # the box was not ticked
    status = signed_in.get(f"/uploads/{upload.pk}/status/", headers={"HX-Request": "true"})
    assert b'<b data-count="queued">1</b>' in status.content
    assert b'hx-trigger="every 1s"' in status.content  # not done: polled again


def test_a_refused_upload_shows_why_and_stores_nothing(signed_in):
    token = csrf_token(signed_in)

    response = signed_in.post("/upload/", {"log": "{bad", "csrfmiddlewaretoken": token})

    assert response.status_code == 400
    assert b"invalid JSON" in response.content
    assert not GameLog.objects.exists() and not Upload.objects.exists()


def test_the_form_states_the_size_limit_a_log_is_refused_beyond(signed_in, settings):
    settings.GAMES_MAX_LOG_BYTES = 2_500_000

    page = signed_in.get("/upload/").content.decode()

    assert "Limits: 2.5 MB per log" in page


def test_the_upload_form_needs_its_csrf_token(signed_in):
    response = signed_in.post("/upload/", {"log": text(human_log(seed=113))})

    assert response.status_code == 403
    assert not GameLog.objects.exists()


def test_the_games_list_shows_verified_games_and_filters_them(
    signed_in, django_capture_on_commit_callbacks
):
    token = csrf_token(signed_in)
    with django_capture_on_commit_callbacks(execute=True):
        signed_in.post("/upload/", {"log": text(human_log(seed=114)), "published": "on",
                                  "csrfmiddlewaretoken": token})  # fmt: skip

    listed = Client().get("/games/?game=deep-dive&player=nemo")
    unmatched = Client().get("/games/?player=nobody")

    assert b"Marina Abyss" in listed.content
    [log] = GameLog.objects.all()
    assert f"#{log.pk}<".encode() not in listed.content
    assert b"No games match" in unmatched.content
