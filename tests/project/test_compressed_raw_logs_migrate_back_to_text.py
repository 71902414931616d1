"""The raw log's compression (games 0012) can be undone on PostgreSQL: going back inflates
every compressed row, so each log reads again as the text it was sent as."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import GameLog, Upload

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_COMPRESSION = [("games", "0011_batch_body_in_the_database")]


def test_going_back_before_compression_gives_every_log_its_text_again(postgresql):
    upload = Upload.objects.create()
    texts = ['{"format": "deepsea-log/1", "note": "caf\\u00e9 \\\\ é"}', '{"a": 1}']
    for number, text in enumerate(texts):
        GameLog.objects.create(upload=upload, raw=text, sha256=f"{number}" * 64)
    with connection.cursor() as cursor:
        cursor.execute("SELECT substring(raw FROM 1 FOR 1) FROM games_gamelog")
        assert {bytes(first) for (first,) in cursor.fetchall()} == {b"\x78"}  # compressed

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_COMPRESSION)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT raw FROM games_gamelog ORDER BY id")
            assert [raw for (raw,) in cursor.fetchall()] == texts
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
