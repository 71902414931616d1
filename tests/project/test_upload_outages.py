"""Uploads while Redis is down: the upload counter (the cache) unreachable gets a clean 503
with nothing stored; the broker unreachable still stores the logs, left queued for the sweep,
which has them verified once the broker is back."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from games_support import human_log, jsonl, simulated_log, text
from kombu.exceptions import OperationalError
from rest_framework.authtoken.models import Token

from games.models import GameLog, Upload
from games.services.dispatch import Dispatch
from games.services.sweep import requeue_stuck_logs

ROOT = Path(__file__).resolve().parents[2]
# Nothing listens on port 1: connections are refused at once, as with a stopped Redis.
DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def unreachable_cache(settings) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": DEAD_REDIS,
        }
    }


@pytest.fixture
def api(client, django_user_model):
    user = django_user_model.objects.create_user("diver", password="kelp-forest-9")
    client.defaults["HTTP_AUTHORIZATION"] = f"Token {Token.objects.create(user=user).key}"
    return client


@pytest.mark.django_db
def test_an_upload_is_refused_with_503_while_the_cache_is_unreachable(unreachable_cache, api):
    stored = Upload.objects.create()
    GameLog.objects.create(upload=stored, raw="{}", sha256="0" * 64, game_type="deep-dive")

    single = api.post("/api/logs/", data=text(human_log(seed=1)), content_type="application/json")
    batch = api.post(
        "/api/uploads/", data=jsonl(human_log(seed=2)), content_type="application/jsonl"
    )

    for response in (single, batch):
        assert response.status_code == 503
        assert "Redis" in response.json()["detail"]
        assert response["Retry-After"] == "60"
    assert list(GameLog.objects.values_list("raw", "status")) == [("{}", "queued")]
    assert Upload.objects.count() == 1


@pytest.mark.django_db
def test_the_upload_page_says_uploads_are_paused_while_the_cache_is_unreachable(
    unreachable_cache, client, django_user_model
):
    client.force_login(django_user_model.objects.create_user("diver"))

    response = client.post("/upload/", {"log": text(human_log(seed=3))})

    assert response.status_code == 503
    assert b"Uploads are paused" in response.content
    assert not GameLog.objects.exists()


@pytest.mark.django_db
def test_saving_a_recording_is_refused_with_503_while_the_cache_is_unreachable(
    unreachable_cache, client, django_user_model
):
    client.force_login(django_user_model.objects.create_user("scorekeeper"))

    response = client.post(
        "/record/save/", text(human_log(seed=7)), content_type="application/json"
    )

    assert response.status_code == 503
    assert "Redis" in response.json()["error"]["text"]
    assert not GameLog.objects.exists()


class UnreachableBrokerTask:
    """Stands in for a Celery task whose broker refuses connections (what .delay raises)."""

    name = "tests.unreachable"

    def __init__(self) -> None:
        self.sends = 0

    def delay(self, *args) -> None:
        self.sends += 1
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")


def test_one_failed_send_stops_the_rest_of_a_submissions_sends():
    task = UnreachableBrokerTask()
    dispatch = Dispatch()

    for chunk in ([1, 2], [3, 4], [5]):
        dispatch.send(task, chunk)

    assert task.sends == 1
    assert dispatch.broker_down


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_logs_uploaded_while_the_broker_is_down_are_verified_by_the_sweep_once_it_is_back(
    postgresql, celery_worker, tmp_path
):
    single = tmp_path / "one.json"
    single.write_text(text(simulated_log("deep-dive", seed=4)))
    batch = tmp_path / "two.jsonl"
    batch.write_bytes(jsonl(simulated_log("deep-dive", seed=5), human_log(seed=6)))
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}",
        "CELERY_BROKER_URL": DEAD_REDIS,
    }

    imported = subprocess.run(
        [sys.executable, "manage.py", "import_logs", str(single), str(batch)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert imported.returncode == 0, imported.stderr
    assert "stay queued for the sweep" in imported.stderr
    assert sorted(GameLog.objects.values_list("status", flat=True)) == ["queued"] * 3

    # The broker holds no message for them: they are sent again, together (never claimed).
    requeued = requeue_stuck_logs(older_than=timedelta(0))
    celery_worker.wait_for("games.tasks.verify_logs_task")

    assert requeued == 3
    assert sorted(GameLog.objects.values_list("status", flat=True)) == ["verified"] * 3
