"""On SQLite, a transactional test's flush waits for a request the live server is still
answering: its read locks the table, and a flush refused for it left the test's rows to the
next test (django_fixtures.sqlite_flush_waits_for_the_live_servers_requests)."""

import threading

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection, connections

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's table locks"),
]

READING_SECONDS = 0.5  # how long the request below reads: a slow page


def test_a_flush_waits_for_a_request_still_reading_and_then_deletes_the_rows():
    User.objects.create_user("keeper")
    reading, done = threading.Event(), threading.Event()

    def request_reading_users():
        """A live server's thread: its own connection, a read left open for a while."""
        own = connections.create_connection("default")
        with own.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute("SELECT * FROM auth_user").fetchone()
            reading.set()
            done.wait(READING_SECONDS)
            cursor.execute("COMMIT")
        own.close()

    request = threading.Thread(target=request_reading_users)
    request.start()
    assert reading.wait(10)
    try:
        call_command("flush", interactive=False, verbosity=0)
    finally:
        done.set()
        request.join()

    assert not User.objects.exists()
