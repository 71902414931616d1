"""`make run` on its default SQLite file: `manage.py load_demo` (run without a broker) and the
Celery worker (on the embedded broker) write to the same file at once, and neither gets
"database is locked"."""

import os
import sqlite3
import subprocess
import sys
import time

from tests.project.test_settings import PROJECT_DIR

TRANSACTIONS = 150
# Each transaction reads before it writes, as most of the site's do: begun as a plain
# (deferred) read, it has to upgrade its lock to write, which SQLite refuses at once, whatever
# the timeout, when the other process wrote in between.
WRITER = """
import sys, time
import django
django.setup()
from django.db import connection, transaction
import pathlib
name, here = sys.argv[1], pathlib.Path(sys.argv[2])
(here / f"ready-{name}").touch()
while not (here / "go").exists():  # both past Django's start-up before the first write
    time.sleep(0.01)
for _ in range(TRANSACTIONS):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM writes")
        time.sleep(0.002)
        cursor.execute("INSERT INTO writes (writer) VALUES (%s)", [name])
""".replace("TRANSACTIONS", str(TRANSACTIONS))


def test_the_demo_load_and_the_worker_write_to_one_sqlite_file_without_a_lock_error(tmp_path):
    database = tmp_path / "db.sqlite3"
    with sqlite3.connect(database) as connection:
        # In WAL mode already, as `make run`'s migrate leaves it before either starts.
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE writes (id INTEGER PRIMARY KEY, writer TEXT)")
    environment = {
        **{k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CI")},
        "DJANGO_SETTINGS_MODULE": "deepsea.settings",
        "PYTHONPATH": str(PROJECT_DIR),
        "DATABASE_URL": f"sqlite:///{database}",
        "REDIS_CACHE_URL": "",
    }
    # The worker of `make run` is on the embedded broker; `load_demo` runs with none.
    worker = {**environment, "CELERY_BROKER_URL": "filesystem://"}
    worker["EMBEDDED_BROKER_DIR"] = str(tmp_path / "broker")
    writers = {
        name: subprocess.Popen(
            [sys.executable, "-c", WRITER, name, str(tmp_path)],
            cwd=PROJECT_DIR,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, env in (("load_demo", environment), ("worker", worker))
    }

    while not all((tmp_path / f"ready-{name}").exists() for name in writers):
        assert all(writer.poll() is None for writer in writers.values()), "a writer died"
        time.sleep(0.01)
    (tmp_path / "go").touch()
    errors = {name: writer.communicate(timeout=120)[1] for name, writer in writers.items()}

    assert all("database is locked" not in error for error in errors.values()), errors
    assert {name: writer.returncode for name, writer in writers.items()} == {
        "load_demo": 0,
        "worker": 0,
    }, errors
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT writer, COUNT(*) FROM writes GROUP BY writer")
        assert dict(rows) == {"load_demo": TRANSACTIONS, "worker": TRANSACTIONS}
