"""Rows written in bulk (common/bulk.py): by binary COPY on PostgreSQL, as the ORM would
store them, and refused with the ORM's errors."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from common.bulk import insert_instances, insert_rows
from games.models import Game, GameLog, Upload

pytestmark = pytest.mark.django_db


def a_game(log: GameLog) -> Game:
    return Game(
        log=log,
        game_type="deep-vents",
        ruleset="starting-bid",
        ruleset_options={"variant": ["a", 1]},
        edition="first",
        player_count=4,
        source="human",
        played_at=timezone.now() - datetime.timedelta(days=3),
    )


def stored_log(line: int) -> GameLog:
    upload = Upload.objects.create()
    raw = f'{{"line": {line}}}'
    return GameLog.objects.create(upload=upload, raw=raw, sha256=GameLog.digest(raw))


def test_instances_inserted_in_bulk_get_ids_and_read_back_as_saved():
    games = [a_game(stored_log(1)), a_game(stored_log(2))]

    insert_instances(Game, games)

    assert all(game.pk and not game._state.adding for game in games)
    for game in games:
        stored = Game.objects.get(pk=game.pk)
        fields = ("log_id", "ruleset_options", "played_at", "counts", "termination")
        assert [getattr(stored, f) for f in fields] == [getattr(game, f) for f in fields]


def test_a_row_the_database_refuses_raises_the_orms_integrity_error():
    log = stored_log(1)
    insert_instances(Game, [a_game(log)])

    with pytest.raises(IntegrityError), transaction.atomic():  # one game per log
        insert_rows(
            Game,
            ["log_id", "game_type", "played_at", "player_count"],
            [(log.pk, "deep-vents", timezone.now(), 4)],
        )
    assert connection.vendor != "postgresql" or Game.objects.count() == 1
