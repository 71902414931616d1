"""The lists of games rendered in process, with no page cache: CPU ms and wall ms a request,
and the queries one request makes, page by page (issue 25: every page p95 under 50 ms
uncached at 1M games).

Run against a database built by `stats_load.py --keep`, with this checkout's code or
another's (`--tree`), so that two trees' runs can be alternated:

    .venv/bin/python benchmarks/list_pages.py --database-url postgres://.../deepsea_bench \
        [--tree ../other-checkout] [--requests 20] [--url /games/ --url /api/games/ ...]

By default: the games list, filtered by game, player, tournament and source, and deep (a
cursor half way down); the API's list, plain, by player and deep; the demo tournament's
page; the busiest player's page. Prints a line a page: median and least CPU ms and wall ms
over the requests (after two not counted), the queries a request makes and their time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode


def default_urls() -> list[str]:
    """The lists' pages on this database (see the module's docstring)."""
    from django.db.models import Count

    from games.models import Game
    from games.pagination import GameCursorPagination
    from players.models import Player
    from tournaments.models import Tournament

    busiest = (
        Player.objects.annotate(n=Count("seats")).order_by("-n").values_list("handle", flat=True)
    )[0]
    middle = Game.objects.order_by("-played_at", "-pk")[Game.objects.count() // 2]
    deep = urlencode({"cursor": GameCursorPagination.cursor_of(middle)})
    tournament = Tournament.objects.order_by("pk").first()
    urls = [
        "/games/",
        "/games/?game=deep-vents",
        f"/games/?player={busiest}",
        "/games/?source=human",
        f"/games/?{deep}",
        "/api/games/",
        f"/api/games/?player={busiest}",
        f"/api/games/?{deep}",
        f"/players/{busiest}/",
        f"/players/{busiest}/?page=3",
    ]
    if tournament is not None:
        urls += [f"/games/?tournament={tournament.pk}", f"/tournaments/{tournament.slug}/"]
    return urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--url", action="append", help="a page (repeat); default: the lists")
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
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    urls = args.url or default_urls()
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
        for url in urls:
            for _ in range(2):  # imports, connection, template loading
                assert client.get(url).status_code == 200, url
            cpu, wall = [], []
            for _ in range(args.requests):
                started_cpu, started = time.process_time(), time.perf_counter()
                response = client.get(url)
                cpu.append((time.process_time() - started_cpu) * 1000)
                wall.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, url
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            query_ms = sum(float(q["time"]) for q in queries.captured_queries) * 1000
            print(
                f"{Path(tree).name} {url[:60]}: CPU ms median {statistics.median(cpu):.1f} "
                f"(least {min(cpu):.1f}), wall ms median {statistics.median(wall):.1f} "
                f"(least {min(wall):.1f}); {len(queries.captured_queries)} queries, "
                f"{query_ms:.1f} ms; load {os.getloadavg()[0]:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
