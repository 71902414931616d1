"""Stats 0008 packs the hex lines a game to a row (issue 25): going back unpacks them into a
row per seat and hex again, and coming forward packs those rows into the same lines."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from stats_support import verified_games

from stats.models import HEX_LINE_COUNTERS, HexLines
from stats.services import hex_packing

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_PACKING = [("stats", "0007_pairs_made_from_seat_lines")]


def stored_lines() -> dict[int, list[tuple]]:
    return {row.game_id: hex_packing.unpack(bytes(row.packed)) for row in HexLines.objects.all()}


def test_hex_lines_go_back_to_rows_and_forward_to_the_same_packed_lines(
    django_capture_on_commit_callbacks,
):
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 2, seed="migrate")
    before = stored_lines()
    assert len(before) == 2

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_PACKING)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT hex, {', '.join(HEX_LINE_COUNTERS)} FROM stats_hexline")
            rows = cursor.fetchall()
        assert len(rows) == sum(len(lines) for lines in before.values())
        assert not any(0 in row[1:] for row in rows)  # 0 stored as NULL, as before 0008
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert stored_lines() == before
