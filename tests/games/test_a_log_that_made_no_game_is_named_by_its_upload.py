"""A log that made no game (rejected, or still waiting for a worker) is named on its page
from what it knows, never by its id: the game, the day it was uploaded, by whom, and the
batch file and line it came from (games.names.log_name)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model

from engines.core.log import dumps
from games.models import GameLog, Upload
from tests.games_support import simulated_log, sitting_as

pytestmark = pytest.mark.django_db
UPLOADED = datetime.datetime(2026, 12, 3, 19, 30, tzinfo=datetime.UTC)


def a_log(status: str, *, user=None, filename: str = "", line: int | None = None) -> GameLog:
    upload = Upload.objects.create(submitted_by=user, filename=filename)
    Upload.objects.filter(pk=upload.pk).update(created=UPLOADED)
    raw = dumps(simulated_log("deep-vents", seed=3, players=3))
    return GameLog.objects.create(
        upload=upload,
        line=line,
        raw=raw,
        sha256=GameLog.digest(raw),
        game_type="deep-vents",
        status=status,
        error={"message": "not a legal move"} if status == GameLog.Status.REJECTED else None,
    )


def title_and_heading(client, log: GameLog) -> tuple[str, str]:
    page = client.get(f"/games/{log.pk}/").content.decode()
    title = re.search(r"<title>(.*?)</title>", page, re.S)[1]
    heading = re.sub(r"<[^>]+>", "", re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)[1])
    return title, heading


def test_a_rejected_log_is_named_by_its_game_upload_day_uploader_and_verdict(client):
    marina = sitting_as(get_user_model().objects.create_user("marina42"), "Marina")
    log = a_log(GameLog.Status.REJECTED, user=marina)

    title, heading = title_and_heading(client, log)

    assert heading == "Deep Vents game uploaded 3 Dec 2026 by Marina (rejected)"
    assert title.startswith(f"{heading} · ")
    assert f"log {log.pk}" not in title + heading


def test_an_uploader_without_a_player_name_is_named_by_their_username(client):
    user = get_user_model().objects.create_user("coral_reef")
    log = a_log(GameLog.Status.REJECTED, user=user)

    assert title_and_heading(client, log)[1] == (
        "Deep Vents game uploaded 3 Dec 2026 by coral_reef (rejected)"
    )


def test_a_log_from_a_batch_is_named_by_its_file_and_line(client):
    log = a_log(GameLog.Status.REJECTED, filename="club-night.jsonl", line=4)

    assert title_and_heading(client, log)[1] == (
        "Deep Vents game uploaded 3 Dec 2026, club-night.jsonl line 4 (rejected)"
    )


def test_a_log_waiting_for_a_worker_says_it_waits_to_be_checked(client):
    log = a_log(GameLog.Status.QUEUED)

    title, heading = title_and_heading(client, log)

    assert heading == "Deep Vents game uploaded 3 Dec 2026 (waiting to be checked)"
    assert f"log {log.pk}" not in title + heading
