"""Two equal keys in one JSON object are refused (400 naming the key), in the engine's own
JSON loading, so the site and the command line agree: before, the last one silently won
(`"game": "deep-dive", "game": "deep-vents"` was stored as Deep Vents)."""

import json
import subprocess
import sys

import pytest
from games_support import human_log, jsonl

from engines.core.errors import MalformedLogError
from engines.core.log import loads
from games.models import GameLog, Upload

pytestmark = pytest.mark.django_db


def with_game_twice() -> str:
    body = json.dumps(human_log(seed=80))
    return body.replace('"game": "deep-dive"', '"game": "deep-dive", "game": "deep-vents"', 1)


def test_the_engine_refuses_a_duplicate_key_naming_it():
    with pytest.raises(MalformedLogError, match='duplicate key "seat"'):
        loads('{"events": [{"type": "bid", "seat": 0, "seat": 1}]}')


def test_a_log_with_the_game_twice_gets_400_naming_the_key(staff_client):
    response = staff_client.post(
        "/api/logs/", data=with_game_twice(), content_type="application/json"
    )

    assert response.status_code == 400
    assert 'duplicate key "game"' in response.json()["detail"]
    assert not GameLog.objects.exists()


def test_a_batch_line_with_a_duplicate_key_is_a_line_error(
    staff_client, django_capture_on_commit_callbacks
):
    batch = jsonl(human_log(seed=81), with_game_twice())

    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")

    assert response.status_code == 202
    upload = Upload.objects.get()
    assert upload.line_errors == [{"line": 2, "error": 'duplicate key "game" in a JSON object'}]
    assert upload.logs.count() == 1


def test_the_command_line_refuses_a_duplicate_key_too(tmp_path):
    path = tmp_path / "twice.json"
    path.write_text(with_game_twice())

    finished = subprocess.run(
        [sys.executable, "-m", "engines", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )

    assert finished.returncode != 0
    assert 'duplicate key "game"' in finished.stdout + finished.stderr
