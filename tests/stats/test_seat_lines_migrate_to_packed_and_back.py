"""Stats 0010 packs the seat and round lines a game to a row (issue 25): going back unpacks
them into a row per seat and per seat and round again, and coming forward packs those rows
into the same lines."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from stats_support import verified_games

from stats.models import SeatLines
from stats.services import seat_packing
from stats.services.lines import SeatRow

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_PACKING = [("stats", "0009_fewer_indexes_per_game")]


def stored_lines() -> dict[int, tuple[list, list]]:
    return {
        row.game_id: seat_packing.unpack(row.game_id, row.month, bytes(row.packed))
        for row in SeatLines.objects.all()
    }


def rows_of(sql: str) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchall()


def test_seat_and_round_lines_go_back_to_rows_and_forward_to_the_same_packed_lines(
    django_capture_on_commit_callbacks,
):
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 2, seed="migrate")
    verified_games(django_capture_on_commit_callbacks, "deep-dive", 2, 1, seed="migrate")
    before = stored_lines()
    assert len(before) == 3
    # As rows, less the seat's player: that is packed only (0012 packs it again coming forward).
    seats = sorted(row[:-1] for lines, _ in before.values() for row in lines)
    rounds = sorted((game_id, *row) for game_id, (_, lines) in before.items() for row in lines)
    assert rounds  # the deep-dive game's

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_PACKING)
    try:
        columns = ", ".join(SeatRow._fields[:-1])
        # Every column as a row, the derived ones (expected, score_bin, score_sq) included.
        assert sorted(rows_of(f"SELECT {columns} FROM stats_seatline")) == seats
        assert (
            sorted(
                rows_of(
                    "SELECT s.game_id, s.seat, r.round, r.moment, r.points, r.drowned, r.depth "
                    "FROM stats_roundline r JOIN stats_seatline s ON s.id = r.seat_id"
                )
            )
            == rounds
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert stored_lines() == before
