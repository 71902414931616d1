"""The statistics pages and the leaderboard rendered in process, with no page cache: CPU ms a
request, wall ms and the queries one request makes, per page (issue 25: every page p95 under
50 ms uncached at 1M games, of which the CPU in Python is the part this measures apart from
the database).

Run against a database built by `stats_load.py --keep`, with this checkout's code or
another's (`--tree`), so that two trees' runs can be alternated (ABAB):

    .venv/bin/python benchmarks/stats_pages.py --database-url postgres://.../deepsea_bench \
        [--tree ../other-checkout] [--requests 20] [--page per-strategy ...] [--profile] \
        [--dump DIR]

Prints one line a page: the tree, the page, median and least CPU ms and median wall ms over
the requests (after two not counted), the queries a request makes and their time. With
--profile, the functions of the first page named taking most CPU (cProfile, cumulative). With
--dump, each page's HTML is written to DIR (its CSP nonce blanked), so two trees' pages can be
compared byte for byte (`diff -r`).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

GAME = "deep-vents"
DATES = {"since": "2024-01", "until": "2024-12"}


def pages(hex_id: str, band: str) -> dict[str, str]:
    """The statistics pages of stats_load.py's list (each filter, and all of them), a hex's
    page with and without dates, and the leaderboard."""
    filters = {
        "": {},
        " dates": DATES,
        " band": {"band": band},
        " players": {"players": 4},
        " source": {"source": "human"},
        " all filters": {**DATES, "band": band, "players": 4, "source": "human"},
    }
    found = {"leaderboard": f"/leaderboards/{GAME}/"}
    for suffix, query in filters.items():
        found[f"per-hex{suffix}"] = f"/stats/hexes/?{urlencode(query)}"
        found[f"per-strategy{suffix}"] = f"/stats/strategies/?{urlencode({'game': GAME, **query})}"
    found["hex"] = f"/stats/hexes/{hex_id}/"
    found["hex dates"] = f"/stats/hexes/{hex_id}/?{urlencode(DATES)}"
    found["index"] = "/stats/"
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument(
        "--page", action="append", help="a page's name (repeatable); by default every page"
    )
    parser.add_argument("--profile", action="store_true", help="profile the first page named")
    parser.add_argument("--dump", help="a directory to write each page's HTML to")
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

    from stats.services import hexes
    from stats.services.bands import BANDS

    hex_id = sorted(hexes.hex_names(GAME))[0]
    every = pages(hex_id, BANDS[1][1])
    chosen = args.page or list(every)
    unknown = [name for name in chosen if name not in every]
    if unknown:
        parser.error(f"no page {', '.join(unknown)}; the pages: {', '.join(every)}")
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
        if args.profile:
            profile(client, every[chosen[0]], args.requests)
            return
        for name in chosen:
            page = every[name]
            for _ in range(2):  # imports, connection, template loading
                assert client.get(page).status_code == 200, page
            cpu, wall = [], []
            for _ in range(args.requests):
                started_cpu, started = time.process_time(), time.perf_counter()
                response = client.get(page)
                cpu.append((time.process_time() - started_cpu) * 1000)
                wall.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, page
            with CaptureQueriesContext(connection) as queries:
                response = client.get(page)
            if args.dump:
                Path(args.dump).mkdir(parents=True, exist_ok=True)
                html = re.sub(rb'nonce="[^"]*"', b'nonce=""', response.content)
                (Path(args.dump) / f"{name.strip().replace(' ', '-')}.html").write_bytes(html)
            query_ms = sum(float(q["time"]) for q in queries.captured_queries) * 1000
            print(
                f"{Path(tree).name}: {name:<26} CPU ms median {statistics.median(cpu):6.1f} "
                f"(least {min(cpu):5.1f}), wall ms median {statistics.median(wall):6.1f}; "
                f"{len(queries.captured_queries):2d} queries, {query_ms:5.1f} ms; "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )


def profile(client, page: str, requests: int) -> None:
    import cProfile
    import pstats

    for _ in range(2):
        client.get(page)
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(requests):
        client.get(page)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
