"""PostgreSQL's parallel helpers: the app's connections run without them (a page's queries
are short and a web server runs several at once: settings.DATABASE_PARALLEL_WORKERS)."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def parallel_workers() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_parallel_workers_per_gather")
        return cursor.fetchone()[0]


def test_the_apps_connections_plan_no_parallel_helpers(postgresql):
    assert parallel_workers() == "0"
