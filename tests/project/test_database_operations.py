"""The database operations of common/database.py, on whichever database the run uses: rows
written in bulk (by binary COPY on PostgreSQL, as the ORM would store them, and refused
with the ORM's errors), tables emptied, rows moved, locks, the newest rows per group."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from common.database import (
    drain,
    hold_lock,
    indexes_built_after,
    insert_instances,
    insert_rows,
    newest_per_group,
    truncate,
    try_lock,
    upsert_rows,
)
from games.models import Game, GameLog, Upload
from players.models import Player
from ratings.models import PendingRating, Rating, RatingChange, RatingLedger

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


def test_upserted_rows_are_inserted_or_update_the_stored_row_they_clash_with():
    known = a_rating("known")
    new = Player.objects.create(handle="new", display_name="new")
    moment = timezone.now()

    upsert_rows(
        Rating,
        ["player", "game_type", "rating", "mu", "sigma", "games", "wins", "last_played"],
        [
            (known.player_id, "deep-vents", 1512.25, 26.5, 8.125, 3, 1, moment),
            (new.pk, "deep-vents", 1487.0000000000002, 24.0, 8.0, 1, 0, None),
        ],
        unique=["player", "game_type"],
        update=["rating", "games", "last_played"],
    )

    stored = {
        rating.player_id: (rating.rating, rating.mu, rating.games, rating.wins, rating.last_played)
        for rating in Rating.objects.all()
    }
    assert stored == {  # the known row keeps what was not updated (mu, wins)
        known.player_id: (1512.25, known.mu, 3, known.wins, moment),
        new.pk: (1487.0000000000002, 24.0, 1, 0, None),
    }


def a_rating(handle: str) -> Rating:
    player = Player.objects.create(handle=handle, display_name=handle)
    return Rating.objects.create(player=player, game_type="deep-vents")


def scratch_tables() -> None:
    """A source with ids, as the statistics' deltas, and a target keyed by k, as a cube."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE scratch_source (id INTEGER PRIMARY KEY, k INTEGER, n INTEGER)")
        cursor.execute("CREATE TABLE scratch_target (k INTEGER PRIMARY KEY, n INTEGER)")
        cursor.execute("INSERT INTO scratch_source VALUES (1, 1, 2), (2, 2, 3), (3, 1, 4)")
        cursor.execute("INSERT INTO scratch_target VALUES (1, 10)")


def rows(table: str) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table} ORDER BY 1")
        return [tuple(row) for row in cursor.fetchall()]


def test_truncate_empties_every_table_named_and_no_other():
    Upload.objects.create()
    for game_type in ("deep-vents", "deep-vents-hex"):
        RatingLedger.objects.create(game_type=game_type)
        PendingRating.objects.create(game_type=game_type, game_id=1, played_at=timezone.now())

    truncate(RatingLedger, PendingRating)

    assert not RatingLedger.objects.exists()
    assert not PendingRating.objects.exists()
    assert Upload.objects.count() == 1


def test_drain_moves_every_row_into_the_statements_and_deletes_them():
    scratch_tables()

    def into(source: str) -> list[str]:
        return [
            f"INSERT INTO scratch_target (k, n) SELECT k, SUM(n) FROM {source} GROUP BY k "
            "ON CONFLICT (k) DO UPDATE SET n = scratch_target.n + excluded.n"
        ]

    assert drain("scratch_source", ["k", "n"], into) == 3
    assert rows("scratch_target") == [(1, 16), (2, 3)]
    assert rows("scratch_source") == []
    assert drain("scratch_source", ["k", "n"], into) == 0


def test_a_free_lock_is_taken_and_taken_again_in_the_same_transaction():
    with transaction.atomic():
        hold_lock(4242)
        assert try_lock(4242)


def test_indexes_built_after_drops_the_indexes_and_builds_the_same_again():
    def indexes() -> set[str]:
        with connection.cursor() as cursor:
            found = connection.introspection.get_constraints(cursor, RatingChange._meta.db_table)
        return {name for name, about in found.items() if about["index"] or about["unique"]}

    before = indexes()
    with indexes_built_after(RatingChange):
        during = indexes()

    assert indexes() == before
    assert len(during) < len(before)


def test_newest_per_group_gives_each_groups_newest_values_newest_first():
    ratings = [a_rating("ada"), a_rating("bea"), a_rating("cy")]
    games = [a_game(stored_log(line)) for line in range(4)]
    insert_instances(Game, games)
    for day, game in enumerate(games):
        for rating in ratings[:2]:
            RatingChange.objects.create(
                game=game,
                player=rating.player,
                game_type="deep-vents",
                played_at=timezone.now() - datetime.timedelta(days=10 - day),
                won=False,
                elo_before=0,
                elo_after=day + rating.pk / 10,
                mu_after=0,
                sigma_after=1,
            )

    newest = newest_per_group(
        RatingChange.objects.all(),
        group="player_id",
        value="elo_after",
        order_by=["-played_at"],
        count=2,
        groups=Rating.objects.exclude(pk=ratings[1].pk).values("player_id"),
    )

    ada = ratings[0]
    assert {k: v for k, v in newest.items() if v} == {
        ada.player_id: [3 + ada.pk / 10, 2 + ada.pk / 10]
    }
