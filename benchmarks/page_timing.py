"""Pages rendered in process with no page cache and timed: Django set up on another
checkout's code if asked (so that two trees' runs can be alternated), and each page's CPU
and wall ms a request and the queries one makes; a page's HTML written out with its CSP nonce
blanked (to compare two trees' pages byte for byte), or its CPU profiled. What list_pages.py,
stats_pages.py and player_page.py share (issue 25)."""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

THIS_TREE = str(Path(__file__).resolve().parent.parent)


def django_on(tree: str, database_url: str) -> str:
    """Django set up with `tree`'s code on this database, with no broker and no shared
    cache; returns the tree's name for the printed lines."""
    tree = str(Path(tree).resolve())
    sys.path.insert(0, tree)
    os.chdir(tree)
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "deepsea.settings"
    for name in ("CELERY_BROKER_URL", "REDIS_CACHE_URL"):
        os.environ.pop(name, None)
    os.environ["LOG_LEVEL"] = "WARNING"
    import django

    django.setup()
    return Path(tree).name


@contextmanager
def uncached_client() -> Iterator[Any]:
    """A test client on the production settings that matter here: DEBUG off, no page
    cache, plain static storage (no manifest needed)."""
    from django.test import Client, override_settings

    with override_settings(
        DEBUG=False,
        ALLOWED_HOSTS=["testserver"],
        CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}},
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        yield Client()


@dataclass
class Timing:
    cpu_ms: list[float]
    wall_ms: list[float]
    queries: int
    query_ms: float
    content: bytes  # the last response's, for comparing two trees' pages

    def __str__(self) -> str:
        return (
            f"CPU ms median {statistics.median(self.cpu_ms):6.1f} (least {min(self.cpu_ms):5.1f}), "
            f"wall ms median {statistics.median(self.wall_ms):6.1f} "
            f"(least {min(self.wall_ms):5.1f}); {self.queries:2d} queries, "
            f"{self.query_ms:5.1f} ms; load {os.getloadavg()[0]:.1f}"
        )


def timed(client: Any, url: str, requests: int) -> Timing:
    """`requests` requests of the page after two not counted (imports, the connection,
    template loading), then one more whose queries are counted."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(2):
        assert client.get(url).status_code == 200, url
    cpu, wall = [], []
    for _ in range(requests):
        started_cpu, started = time.process_time(), time.perf_counter()
        response = client.get(url)
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, url
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    query_ms = sum(float(q["time"]) for q in queries.captured_queries) * 1000
    return Timing(cpu, wall, len(queries.captured_queries), query_ms, response.content)


def dump(content: bytes, directory: str, name: str) -> None:
    """The page's HTML in DIRECTORY/NAME.html with its CSP nonce blanked: the nonce is new
    on every request, the rest must be the same in two trees (`diff -r`)."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    html = re.sub(rb'nonce="[^"]*"', b'nonce=""', content)
    (Path(directory) / f"{name}.html").write_bytes(html)


def file_name(url: str) -> str:
    """A page's URL as a file name for dump()."""
    return re.sub(r"[^-a-zA-Z0-9_.]+", "_", url.strip("/")) or "index"


def profile(client: Any, url: str, requests: int) -> None:
    """The functions taking most CPU over `requests` requests of the page (cProfile on
    process time), by cumulative then by own time."""
    import cProfile
    import pstats

    for _ in range(2):
        client.get(url)
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(requests):
        client.get(url)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(30)
