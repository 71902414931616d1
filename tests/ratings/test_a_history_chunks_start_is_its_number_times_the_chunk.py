"""Ratings 0008 drops RatingHistory.start, a chunk's number x CHUNK (issue 25, bytes per
game): going back writes every start again from its chunk's number; coming forward from a
database without histories builds them (0007 no longer does: it makes the table only)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings import history
from ratings.models import RatingHistory
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("ratings", "0007_rating_history")]


def migrated(target: list[tuple[str, str]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def chunks() -> list[tuple]:
    rows = RatingHistory.objects.order_by("player_id", "chunk")
    return [(*row[:-1], bytes(row[-1])) for row in rows.values_list(*history.FIELDS)]


def test_going_back_writes_each_chunks_start_and_coming_forward_builds_missing_histories(
    monkeypatch,
):
    monkeypatch.setattr(history, "CHUNK", 3)  # the migrations read the module's CHUNK
    for seed in range(7):  # ann and bob: two chunks each, and one point more
        verified_game(["ann", "bob"], seed=seed, played_at=hours_ago(10 - seed))
    kept = chunks()
    assert len(kept) == 4

    migrated(BEFORE)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT chunk, start FROM ratings_ratinghistory ORDER BY chunk")
            assert {chunk: start for chunk, start in cursor.fetchall()} == {0: 0, 1: 3}
            cursor.execute("DELETE FROM ratings_ratinghistory")  # a database that had none
    finally:
        migrated()

    assert chunks() == kept
