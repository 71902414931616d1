"""Upload throughput: one JSON Lines batch of simulated Deep Vents logs, POSTed to the API,
verified by two worker processes on the real Redis and PostgreSQL.

Prints logs verified per second end to end (from the start of the upload to the last
verdict, and to the end of the ratings recompute that games verified out of order queue) and
the median and 95th percentile time from a log's upload to its verdict.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea \
    CELERY_BROKER_URL=redis://127.0.0.1:6379/9 .venv/bin/python benchmarks/upload_throughput.py

It works in a database of its own (deepsea_upload_bench, created and dropped) and a queue of its
own for the batch; the workers also take the default queue, where they queue the ratings
recompute, so give it a Redis database number nobody else uses (its default queue is
purged). Simulating 10,000 Deep Vents games would take minutes, so --distinct games are
simulated and each is submitted under several sets of player names: every log is distinct
(its own SHA-256, stored and replayed in full), the replay work is the same.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")
BENCH_DB = "deepsea_upload_bench"
DEFAULT_QUEUE = "celery"


def make_batch(count: int, distinct: int, game_id: str) -> bytes:
    from engines import get_game
    from engines.core.log import dumps
    from engines.core.simulate import simulate

    game = get_game(game_id)
    base = list(simulate(game, game.ruleset(None), 3, distinct, seed="bench"))
    lines = []
    for index in range(count):
        log = dict(base[index % distinct])
        variant = index // distinct
        log["players"] = [
            {**player, "name": f"{player['name']}-v{variant}"} for player in log["players"]
        ]
        lines.append(dumps(log).encode())
    return b"\n".join(lines) + b"\n"


def start_workers(count: int, queue: str, database_url: str) -> list[subprocess.Popen]:
    # Persistent connections, as production workers run (README: CONN_MAX_AGE): without
    # them each task opens its own.
    env = {**os.environ, "DATABASE_URL": database_url, "CONN_MAX_AGE": "600"}
    return [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "deepsea",
                "worker",
                "-Q",
                f"{queue},{DEFAULT_QUEUE}",  # the batch, and the recompute the workers queue
                "--pool",
                "solo",
                "--loglevel",
                "WARNING",
                "--hostname",
                f"bench{number}-{uuid.uuid4().hex[:6]}@%h",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        for number in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=500, help="Games simulated.")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", default="deep-vents")
    args = parser.parse_args()

    import django
    from django.conf import settings

    django.setup()
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL database")
    if not settings.CELERY_BROKER_URL:
        sys.exit("set CELERY_BROKER_URL to a Redis server")

    from django.db import connection

    connection.settings_dict["TEST"]["NAME"] = BENCH_DB
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}"
    )

    from django.contrib.auth import get_user_model
    from django.db.models import F
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from deepsea.celery import app
    from games.models import BatchState, GameLog, Upload
    from ratings.models import RatingLedger

    print(f"simulating {args.distinct} {args.game} games for {args.logs} logs ...", flush=True)
    batch = make_batch(args.logs, args.distinct, args.game)
    queue = f"bench-{uuid.uuid4().hex}"
    app.control.purge()  # leftovers of an earlier run in the default queue
    app.conf.task_default_queue = queue
    # A batch counts against the limit by its lines.
    settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["uploads"] = "1000000/hour"
    # Staff: the batch seats many players, and only staff may submit games they do not sit in.
    user = get_user_model().objects.create_user("bench", is_staff=True)
    token = Token.objects.create(user=user)
    workers = start_workers(args.workers, queue, database_url)
    try:
        time.sleep(3)  # workers up and connected before the clock starts
        started = time.monotonic()
        response = Client(SERVER_NAME="localhost").post(
            "/api/uploads/",
            data=batch,
            content_type="application/jsonl",
            HTTP_AUTHORIZATION=f"Token {token.key}",
        )
        uploaded = time.monotonic()
        assert response.status_code == 202, response.content[:500]
        upload = Upload.objects.get(pk=response.json()["id"])
        print(f"batch stored in {uploaded - started:.1f} s (202); a worker reads it", flush=True)
        while upload.batch_state != BatchState.READ:
            time.sleep(0.2)
            upload.refresh_from_db()
        stored = upload.logs.count()
        print(f"{stored} logs read and stored after {time.monotonic() - started:.1f} s", flush=True)
        pending = GameLog.objects.exclude(status__in=["verified", "rejected", "error"])
        while pending.exists():
            time.sleep(0.2)
        verdicts = time.monotonic()
        stale = RatingLedger.objects.filter(stale=True)
        while stale.exists():  # the deferred ratings recompute is part of the work
            time.sleep(0.2)
        finished = time.monotonic()
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait(timeout=30)

    outcomes = dict.fromkeys(["verified", "rejected", "error"], 0)
    for status in GameLog.objects.values_list("status", flat=True):
        outcomes[status] += 1
    latencies = sorted(
        (verified_at - created).total_seconds()
        for created, verified_at in GameLog.objects.annotate(v=F("verified_at")).values_list(
            "created", "v"
        )
        if verified_at is not None
    )
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    print(f"verdicts: {outcomes}")
    print(
        f"end to end: {stored / (finished - started):.0f} logs/s "
        f"({stored} logs in {finished - started:.1f} s, {args.workers} worker processes)"
    )
    print(
        f"last verdict after {verdicts - started:.1f} s, "
        f"ratings caught up after {finished - started:.1f} s"
    )
    print(f"upload to verdict: median {statistics.median(latencies):.2f} s, p95 {p95:.2f} s")
    connection.creation.destroy_test_db(BENCH_DB, verbosity=0)


if __name__ == "__main__":
    main()
