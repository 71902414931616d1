"""The pages' PostgreSQL connections run without JIT compiling (settings.DATABASE_JIT): a
statement the planner reckons costly was compiled to machine code for longer than any page's
query runs (issue 25)."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_the_pages_connections_run_their_statements_without_jit(postgresql):
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
