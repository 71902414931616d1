"""PostgreSQL's parallel helpers: the app's connections run without them (a page's queries
are short and a web server runs several at once: settings.DATABASE_PARALLEL_WORKERS); the
statistics rebuild, one GROUP BY over every line per cube, allows them for itself."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from stats.services.aggregate import CUBES, REBUILD_WORKERS, rebuild_all
from tests.stats_support import verified_games

pytestmark = pytest.mark.django_db

SET_WORKERS = re.compile(r"SET LOCAL max_parallel_workers_per_gather = (\d+)")


def parallel_workers() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_parallel_workers_per_gather")
        return cursor.fetchone()[0]


def test_the_apps_connections_plan_no_parallel_helpers(postgresql):
    assert parallel_workers() == "0"


def test_the_statistics_rebuild_allows_parallel_helpers_for_each_cube_summed_in_sql(
    postgresql, django_capture_on_commit_callbacks
):
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 2, seed="p1")

    with CaptureQueriesContext(connection) as queries:
        rebuild_all()

    statements = [query["sql"] for query in queries.captured_queries]
    sums = [i for i, sql in enumerate(statements) if sql.startswith("CREATE TEMPORARY TABLE")]
    # The hex cube sums its packed lines in Python (packed_sums): no GROUP BY to parallelise.
    assert len(sums) == len([spec for spec in CUBES if not spec.packed])
    for index in sums:
        before = [SET_WORKERS.search(sql) for sql in statements[:index]]
        assert [int(m.group(1)) for m in before if m][-1] == REBUILD_WORKERS
