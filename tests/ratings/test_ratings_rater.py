"""The rater: verification only adds games to the pending ones; one rater per game type rates
them after the commit, in played order, with the full recompute's numbers."""

import functools
import json
import re
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from deepsea.celery import app as celery_app
from games.models import Game
from games.services.intake import submit_log
from games.services.verification import verify_log
from games.signals import game_retracted
from ratings import services
from ratings.models import PendingRating, Rating, RatingChange, RatingLedger
from ratings.tasks import rate_games_task, rate_stranded_games_task
from tests.ratings_support import (
    DEEP_VENTS,
    deep_vents_log,
    hours_ago,
    recomputed_ratings,
    stored_ratings,
    verified_game,
)

RATINGS_TABLES = ("ratings_rating", "ratings_ratingchange", "ratings_ratingledger")
NAMES = ["ann", "bob", "cyd", "dee"]


@pytest.fixture
def with_broker():
    """Tasks go to a broker (none is reached: what is queued on commit is never sent here),
    so the rater runs after the verifying transaction, not in it."""
    celery_app.conf.task_always_eager = False


def sent_tasks(callbacks) -> list[tuple[str, tuple]]:
    """The tasks that on-commit callbacks (task.delay_on_commit) would send."""
    return [
        (callback.func.__self__.name, callback.args)
        for callback in callbacks
        if isinstance(callback, functools.partial)
    ]


def rows_written() -> dict[str, tuple[int, int, int]]:
    """The ratings tables' rows inserted, updated and deleted so far in this transaction,
    per table, a COPY's included (PostgreSQL's pg_stat_xact_user_tables)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_xact_user_tables"
            " WHERE relname LIKE 'ratings%%'"
        )
        return {row[0]: tuple(row[1:]) for row in cursor.fetchall()}


def rows_written_since(before: dict[str, tuple[int, int, int]]) -> dict[str, tuple[int, ...]]:
    """The ratings tables whose rows_written() moved since `before`, by how much."""
    moved = {}
    for table, counts in rows_written().items():
        was = before.get(table, (0, 0, 0))
        if counts != was:
            moved[table] = tuple(now - then for now, then in zip(counts, was, strict=True))
    return moved


def verify(names: list[str], seed: int, played_at=None) -> Game:
    """Submit and verify one game, outside any worker."""
    log = deep_vents_log(names, seed, played_at or timezone.now())
    return verify_log(submit_log(json.dumps(log), user=None).pk).game


@pytest.mark.django_db
def test_a_verification_with_a_broker_touches_no_rating_and_only_adds_a_pending_game(
    with_broker, django_capture_on_commit_callbacks
):
    first = verify(NAMES[:3], seed=1, played_at=hours_ago(2))
    log = submit_log(json.dumps(deep_vents_log(NAMES, 2, hours_ago(1))), user=None)
    ratings = list(Rating.objects.values_list("pk", flat=True))

    before = rows_written() if connection.vendor == "postgresql" else {}
    with (
        django_capture_on_commit_callbacks() as queued,
        CaptureQueriesContext(connection) as queries,
    ):
        game = verify_log(log.pk).game

    # Reads never wait in PostgreSQL (the statistics read ratings for their bands): only a
    # write or a lock on a ratings table could.
    # An executemany is captured as "<n> times: <its SQL>".
    sql = [re.sub(r"^\S+ times: ", "", query["sql"]) for query in queries.captured_queries]
    writes = [s for s in sql if s.startswith(("INSERT", "UPDATE", "DELETE")) or "FOR UPDATE" in s]
    assert not [s for s in writes if any(table in s for table in RATINGS_TABLES)]
    if connection.vendor == "postgresql":
        # The pending game is appended by a COPY (insert_rows), which no query capture sees:
        # the transaction's own row counts do.
        assert rows_written_since(before) == {"ratings_pendingrating": (1, 0, 0)}
    else:  # SQLite has no COPY: the capture saw every write
        assert [s.split(" (")[0] for s in writes if "ratings_" in s] == [
            'INSERT INTO "ratings_pendingrating"'
        ]
    assert list(Rating.objects.values_list("pk", flat=True)) == ratings
    # Outside a worker the rater is a task, sent once the verification has committed.
    assert sent_tasks(queued) == [(rate_games_task.name, (DEEP_VENTS,))]
    assert not RatingChange.objects.exists()
    pending = PendingRating.objects.values_list("game_id", flat=True).order_by("pk")
    assert list(pending) == [first.pk, game.pk]

    assert services.rate_until_caught_up(DEEP_VENTS) == 2  # what the task does
    assert services.behind() == []
    assert stored_ratings() == recomputed_ratings()


@pytest.mark.django_db
def test_a_game_pending_again_is_rated_once(with_broker):
    game = verify(NAMES, seed=3)
    services.rate_until_caught_up(DEEP_VENTS)
    before = stored_ratings()

    services.add_pending([game])  # counted twice, or its rater ran twice
    assert services.rate_until_caught_up(DEEP_VENTS) == 0

    assert stored_ratings() == before
    assert RatingChange.objects.filter(game=game).count() == 4
    assert not PendingRating.objects.exists()


@pytest.mark.django_db
def test_games_pending_in_any_order_get_the_recompute_numbers(with_broker):
    for seed, hours in enumerate([9, 8, 7, 6]):
        verify(NAMES[: 2 + seed % 3], seed=seed, played_at=hours_ago(hours))
    services.rate_until_caught_up(DEEP_VENTS)
    for seed, hours in enumerate([5, 8.5, 4, 6.5], start=4):  # two of them older than rated ones
        verify(NAMES[seed % 2 :], seed=seed, played_at=hours_ago(hours))

    assert services.rate_until_caught_up(DEEP_VENTS) == 7  # the 4 new ones and 3 rated since 8.5 h
    caught_up = stored_ratings()

    assert caught_up == recomputed_ratings()
    assert sum(games for *_, games, _w, _l in caught_up[0]) == len(caught_up[1])


@pytest.mark.django_db
def test_the_rater_looks_again_for_games_committed_while_it_held_the_ledger(
    with_broker, monkeypatch
):
    verify(NAMES, seed=1, played_at=hours_ago(3))
    rate_pending = services.rate_pending
    rounds = []

    def another_worker_commits_meanwhile(game_type, **kwargs):
        rated = rate_pending(game_type, **kwargs)
        if not rounds:  # its own rater found the ledger taken, and left the game to this one
            verify(NAMES, seed=2, played_at=hours_ago(2))
        rounds.append(rated)
        return rated

    monkeypatch.setattr(services, "rate_pending", another_worker_commits_meanwhile)

    assert services.rate_until_caught_up(DEEP_VENTS) == 2
    assert rounds == [1, 1]
    assert services.behind() == []


@pytest.mark.django_db
def test_a_long_catch_up_found_by_a_worker_is_left_to_a_task(
    with_broker, django_capture_on_commit_callbacks
):
    for seed, hours in enumerate([5, 4, 3]):
        verify(NAMES, seed=seed, played_at=hours_ago(hours))
    services.rate_until_caught_up(DEEP_VENTS)
    verify(NAMES, seed=9, played_at=hours_ago(6))  # older than the three rated games

    with django_capture_on_commit_callbacks() as queued:
        assert services.rate_pending(DEEP_VENTS, largest_catch_up=3) == 0

    assert RatingLedger.objects.get(game_type=DEEP_VENTS).stale
    assert sent_tasks(queued) == [(rate_games_task.name, (DEEP_VENTS,))]
    assert services.rate_pending(DEEP_VENTS, largest_catch_up=3) == 0  # the task's job
    rate_games_task(DEEP_VENTS)

    assert not RatingLedger.objects.get(game_type=DEEP_VENTS).stale
    assert services.behind() == []
    assert stored_ratings() == recomputed_ratings()


@pytest.mark.django_db
def test_a_rated_game_retracted_leaves_the_ratings_once_the_rater_has_run(with_broker):
    kept = verify(NAMES, seed=4, played_at=hours_ago(3))
    retracted = verify(NAMES[:2], seed=5, played_at=hours_ago(2))
    later = verify(NAMES[1:], seed=6, played_at=hours_ago(1))
    services.rate_until_caught_up(DEEP_VENTS)

    with transaction.atomic():
        game_retracted.send(sender=Game, game=retracted)
        retracted.log.delete()
    assert services.behind() == [DEEP_VENTS]
    services.rate_until_caught_up(DEEP_VENTS)

    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {kept.pk, later.pk}
    assert dict(Rating.objects.values_list("player__handle", "games")) == {
        "ann": 1,
        "bob": 2,
        "cyd": 2,
        "dee": 2,
    }
    assert stored_ratings() == recomputed_ratings()


@pytest.mark.django_db
def test_a_game_retracted_before_it_was_rated_leaves_nothing_to_redo(with_broker):
    game = verify(NAMES, seed=7)

    with transaction.atomic():
        game_retracted.send(sender=Game, game=game)
        game.log.delete()

    assert services.behind() == []
    assert not Rating.objects.exists()


@pytest.mark.django_db
def test_beat_rates_the_games_whose_rater_was_lost_and_leaves_fresh_ones_to_theirs(with_broker):
    lost = verify(NAMES, seed=8, played_at=hours_ago(2))
    PendingRating.objects.filter(game_id=lost.pk).update(
        created=timezone.now() - timedelta(minutes=1)
    )
    assert rate_stranded_games_task() == [DEEP_VENTS]
    assert RatingChange.objects.filter(game=lost).count() == 4

    verify(NAMES, seed=9)  # its rater is on its way
    assert rate_stranded_games_task() == []
    assert PendingRating.objects.count() == 1


@pytest.mark.django_db
def test_beat_catches_up_a_stale_ledger_whose_task_was_lost():
    RatingLedger.objects.create(game_type="deep-dive", stale=True)

    assert rate_stranded_games_task() == ["deep-dive"]

    assert not RatingLedger.objects.get(game_type="deep-dive").stale


@pytest.mark.django_db
def test_without_a_broker_games_are_rated_in_the_verifying_transaction():
    game = verified_game(NAMES, seed=10)

    assert RatingChange.objects.filter(game=game).count() == 4
    assert services.behind() == []


class LedgerHolder(threading.Thread):
    """Another process's rater: holds the ledger's row lock until told to let go."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.holding = threading.Event()
        self.release = threading.Event()

    def run(self) -> None:
        try:
            with transaction.atomic():
                services.locked_ledger(DEEP_VENTS)
                self.holding.set()
                self.release.wait()
        finally:
            connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_verification_never_waits_for_a_rater_holding_the_ledger(postgresql, monkeypatch):
    after_commit = []  # what the verifying worker's rater found, right after each commit

    def rate_as_a_worker(game_type, exclude=(), games=()):
        transaction.on_commit(lambda: after_commit.append(services.rate_until_caught_up(game_type)))

    monkeypatch.setattr(services, "rate_after_commit", rate_as_a_worker)
    verify(NAMES, seed=11, played_at=hours_ago(1))
    assert after_commit == [1]
    holder = LedgerHolder()
    holder.start()
    assert holder.holding.wait(timeout=30)
    try:
        with connection.cursor() as cursor:  # a verification that waited would fail, not hang
            cursor.execute("SET lock_timeout = '10s'")
        game = verify(NAMES, seed=12)
        assert after_commit == [1, None]  # the ledger was taken: left to its holder
        assert services.behind() == [DEEP_VENTS]
    finally:
        holder.release.set()
        holder.join()

    assert services.rate_until_caught_up(DEEP_VENTS) == 1  # the holder's look after its commit
    assert RatingChange.objects.filter(game=game).count() == 4
    assert stored_ratings() == recomputed_ratings()


@pytest.mark.services
def test_a_real_worker_rates_the_games_it_verifies_out_of_order_as_a_recompute(celery_worker):
    for seed, hours in enumerate([3, 2, 4, 1, 5]):
        log = deep_vents_log(NAMES[seed % 2 :], seed, hours_ago(hours))
        submit_log(json.dumps(log), user=None)

    for _ in range(5):
        celery_worker.wait_for("games.tasks.verify_log_task")

    assert services.behind() == []  # each task rated its game after its verifying commit
    assert Game.objects.count() == 5
    assert RatingChange.objects.values("game_id").distinct().count() == 5
    assert stored_ratings() == recomputed_ratings()
