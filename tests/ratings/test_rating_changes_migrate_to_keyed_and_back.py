"""Ratings 0006 keys the rating changes by (game, player) and drops what can be read elsewhere
(issue 25): going back derives the seat's rank, the game's source and the OpenSkill values
going in, as the rater gave them; coming forward keeps every change as it was."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import GameSeat
from ratings.models import RatingChange
from ratings.rater import Rater
from ratings.services import elo_k, game_records
from tests.ratings_support import DEEP_VENTS, hours_ago, verified_game

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_KEYING = [("ratings", "0005_rating_changes_without_constraints")]
FIELDS = ["game_id", "player_id", "played_at", "elo_before", "elo_after", "mu_after", "won"]


def stored() -> list[tuple]:
    return list(RatingChange.objects.order_by("game_id", "player_id").values_list(*FIELDS))


def test_rating_changes_go_back_with_what_was_dropped_and_forward_unchanged():
    for index, names in enumerate([["ann", "bob", "cyd"], ["bob", "cyd"], ["ann", "cyd", "dee"]]):
        verified_game(names, seed=index, played_at=hours_ago(10 - index))
    before = stored()
    rater = Rater(elo_k())
    expected = {}
    for record in game_records(DEEP_VENTS):
        for change in rater.apply(record):
            rank = GameSeat.objects.get(game_id=record.game_id, player_id=change.player_id).rank
            expected[record.game_id, change.player_id] = (
                record.source,
                rank,
                change.mu_before,
                change.sigma_before,
            )
    assert len(expected) == len(before) == 8

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_KEYING)
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT game_id, player_id, source, rank, mu_before, sigma_before "
                "FROM ratings_ratingchange"
            )
            going_back = {(game, player): tuple(rest) for game, player, *rest in cursor.fetchall()}
        assert going_back == expected
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert stored() == before
