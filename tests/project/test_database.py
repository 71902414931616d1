"""With DATABASE_URL at PostgreSQL, the site talks to it through psycopg 3."""

import pytest
from django.db import connection


@pytest.mark.django_db
def test_postgresql_is_reached_through_psycopg_3(postgresql):
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        (version,) = cursor.fetchone()

    assert connection.vendor == "postgresql"
    assert type(connection.connection).__module__.startswith("psycopg")
    assert int(version) >= 150000, "PostgreSQL 15 or newer is required"
