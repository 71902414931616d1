"""Games 0015 keeps a log's SHA-256 as its 32 bytes (issue 25): going back writes each as its
64 hex digits again, coming forward as the same bytes, and the model reads them as hex."""

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import GameLog, Upload

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_BYTES = [("games", "0014_fewer_indexes_per_game")]


def test_digests_go_back_to_hex_text_and_forward_to_the_same_bytes():
    upload = Upload.objects.create()
    texts = ['{"a": 1}', '{"b": 2}']
    for text in texts:
        GameLog.objects.create(upload=upload, raw=text, sha256=GameLog.digest(text))
    digests = [hashlib.sha256(text.encode()).hexdigest() for text in texts]
    with connection.cursor() as cursor:
        cursor.execute("SELECT sha256 FROM games_gamelog ORDER BY id")
        assert [bytes(value) for (value,) in cursor.fetchall()] == [
            bytes.fromhex(digest) for digest in digests
        ]

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_BYTES)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT sha256 FROM games_gamelog ORDER BY id")
            assert [value for (value,) in cursor.fetchall()] == digests
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert list(GameLog.objects.order_by("pk").values_list("sha256", flat=True)) == digests
    assert GameLog.objects.filter(sha256__in=digests[1:]).get().raw == texts[1]
