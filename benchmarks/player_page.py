"""A player's page rendered in process, with no page cache: CPU ms and wall ms a request, and
the queries one request makes (issue 25: every page p95 under 50 ms uncached at 1M games).

Run against a database built by `stats_load.py --keep` (its busiest player by default), with
this checkout's code or another's (`--tree`), so that two trees' runs can be alternated:

    .venv/bin/python benchmarks/player_page.py --database-url postgres://.../deepsea_bench \
        [--tree ../other-checkout] [--requests 40] [--handle NAME]

Prints one line: the tree, the handle and its games, median and least CPU ms and wall ms
over the requests (after two not counted), the queries a request makes and their time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--handle", help="the player (by default the one with most games)")
    args = parser.parse_args()

    tree = str(Path(args.tree).resolve())
    sys.path.insert(0, tree)
    os.chdir(tree)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "deepsea.settings"
    for name in ("CELERY_BROKER_URL", "REDIS_CACHE_URL"):
        os.environ.pop(name, None)
    os.environ["LOG_LEVEL"] = "WARNING"
    import django

    django.setup()
    from django.db import connection
    from django.db.models import Count
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from players.models import Player

    handle = args.handle
    if handle is None:
        handle = (
            Player.objects.annotate(n=Count("seats"))
            .order_by("-n")
            .values_list("handle", flat=True)[0]
        )
    games = Player.objects.get(handle=handle).seats.count()
    page = f"/players/{handle}/"
    with override_settings(
        DEBUG=False,
        ALLOWED_HOSTS=["testserver"],
        CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}},
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        client = Client()
        for _ in range(2):  # imports, connection, template loading
            assert client.get(page).status_code == 200
        cpu, wall = [], []
        for _ in range(args.requests):
            started_cpu, started = time.process_time(), time.perf_counter()
            response = client.get(page)
            cpu.append((time.process_time() - started_cpu) * 1000)
            wall.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200
        with CaptureQueriesContext(connection) as queries:
            client.get(page)
    query_ms = sum(float(q["time"]) for q in queries.captured_queries) * 1000
    print(
        f"{Path(tree).name}: {handle} ({games} games), {args.requests} requests: "
        f"CPU ms median {statistics.median(cpu):.1f} (least {min(cpu):.1f}), "
        f"wall ms median {statistics.median(wall):.1f} (least {min(wall):.1f}); "
        f"{len(queries.captured_queries)} queries, {query_ms:.1f} ms; "
        f"load {os.getloadavg()[0]:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
