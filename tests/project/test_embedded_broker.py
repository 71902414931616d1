"""`make run`'s embedded broker: kombu's filesystem transport, no server needed. Uploads are
queued (the request does not verify them) and a worker beside the web process verifies them,
as with Redis in production. Tests themselves stay eager (tests/conftest.py)."""

import contextlib
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from web_stack import copy_of_a_migrated_sqlite_database

from tests.project.test_settings import PROJECT_DIR, load_settings


def test_a_filesystem_broker_url_queues_tasks_in_folders_and_shares_a_file_cache(
    monkeypatch, tmp_path
):
    settings = load_settings(
        monkeypatch, CELERY_BROKER_URL="filesystem://", EMBEDDED_BROKER_DIR=str(tmp_path / "broker")
    )

    assert settings["CELERY_TASK_ALWAYS_EAGER"] is False
    options = settings["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert options["data_folder_in"] == options["data_folder_out"] == str(tmp_path / "broker/queue")
    assert Path(options["data_folder_in"]).is_dir()
    cache = settings["CACHES"]["default"]
    assert cache["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    assert settings["DATABASES"]["default"]["OPTIONS"]["init_command"].startswith(
        "PRAGMA journal_mode=WAL"
    )


def test_without_a_broker_tasks_still_run_eagerly(monkeypatch):
    assert load_settings(monkeypatch)["CELERY_TASK_ALWAYS_EAGER"] is True


SUBMIT = """
import json
from engines.core.simulate import simulate
from engines.registry import get_game
from games.services.intake import submit_batch
game = get_game("deep-dive")
logs = simulate(game, game.ruleset(None), 2, 5, seed="embedded")
upload = submit_batch((json.dumps(log).encode() for log in logs), user=None)
print(upload.logs.filter(status="queued").count())
"""


def verified_logs(database: Path) -> int:
    """Read straight from the file, as often as needed: no Django process for each look."""
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as connection:
        return connection.execute(
            "SELECT COUNT(*) FROM games_gamelog WHERE status = 'verified'"
        ).fetchone()[0]


def test_a_worker_on_the_embedded_broker_verifies_what_the_web_side_queued(tmp_path):
    environment = {
        **{k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CI")},
        "CELERY_BROKER_URL": "filesystem://",
        "EMBEDDED_BROKER_DIR": str(tmp_path / "broker"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_CACHE_URL": "",
    }

    def manage(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=PROJECT_DIR,
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    copy_of_a_migrated_sqlite_database(tmp_path / "db.sqlite3", environment)
    # With no worker yet, the submission answers with every log still queued.
    assert manage("shell", "-c", SUBMIT).strip().splitlines()[-1] == "5"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "deepsea", "worker", "--pool", "solo"],
        cwd=PROJECT_DIR,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        verified = 0
        while verified != 5 and time.monotonic() < deadline and worker.poll() is None:
            time.sleep(0.2)
            verified = verified_logs(tmp_path / "db.sqlite3")
        assert verified == 5, f"the worker verified {verified} of 5 (exit {worker.poll()})"
    finally:
        worker.terminate()
        worker.wait(timeout=60)
