"""Games 0017 moves a seat's turn order and bid from two columns into the engine's summary
(GameSeat.summary): going back puts them into the columns again, and coming forward gives
every seat the summary it had; a game without them (Deep Dive) keeps none either way."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from stats_support import verified_games

from games.models import GameSeat

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_SUMMARY = [("games", "0016_plain_indexes_without_like_ones")]


def summaries() -> dict[tuple[int, int], dict | None]:
    return {(s.game_id, s.seat): s.summary for s in GameSeat.objects.all()}


def test_turn_order_and_bid_go_back_to_columns_and_forward_to_the_same_summary(
    django_capture_on_commit_callbacks,
):
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 2, seed="summary")
    verified_games(django_capture_on_commit_callbacks, "deep-dive", 2, 1, seed="summary")
    before = summaries()
    expected_columns = {
        key: (None, None) if summary is None else (summary["turn"], summary.get("bid"))
        for key, summary in before.items()
    }
    assert sum(summary is not None for summary in before.values()) == 6
    assert sum(summary is None for summary in before.values()) == 2
    assert any("bid" in (summary or {}) for summary in before.values())

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_SUMMARY)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT game_id, seat, turn_order, bid FROM games_gameseat")
            columns = {(game, seat): (order, bid) for game, seat, order, bid in cursor.fetchall()}
        assert columns == expected_columns
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert summaries() == before
