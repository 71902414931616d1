"""Verification appends cube deltas and one folder moves them in: workers share no cube row,
and pages read the same numbers before and after the fold (stats/services/aggregate.py)."""

import re
import threading

import psycopg
import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from deepsea.celery import app as celery_app
from games.models import Game
from games.signals import game_retracted
from stats import tasks
from stats.filters import StatsFilter
from stats.models import StrategyCubeDelta
from stats.services import aggregate
from stats.services.aggregate import CUBES, add_games, fold_deltas, rebuild_all
from stats.services.hexes import hex_table
from stats.services.strategies import first_player_by_bid, position_advantages, strategy_table
from tests.stats_support import verified_games

pytestmark = pytest.mark.django_db

# A statement writing a cube or rollup table itself (its delta table's name goes on).
CUBE_WRITE = re.compile(r'(INSERT INTO|UPDATE|DELETE FROM) "stats_\w+cube(rollup)?"', re.I)
FILTERS = ({"game": "deep-vents"}, {"game": "deep-vents", "since": "2000-01"})
ON_POSTGRESQL = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="concurrent writers need PostgreSQL (SQLite writes one transaction at a time)",
)


@pytest.fixture
def queued_folds(monkeypatch) -> list[dict]:
    """Folds queued by commits, recorded instead of run."""
    queued = []
    monkeypatch.setattr(
        tasks.fold_deltas_task, "apply_async", lambda **options: queued.append(options)
    )
    aggregate.shared_cache.delete(aggregate.FOLD_QUEUED_KEY)
    return queued


@pytest.fixture
def unfolded_games(queued_folds, django_capture_on_commit_callbacks) -> list[Game]:
    """Deep Vents games verified through the intake path, their deltas not folded yet."""
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 3, seed="d1")
    games += verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 2, seed="d2")
    return games


def pages(filters: dict) -> dict:
    """What the statistics pages show under these filters, less the keys whose games were
    all retracted (their rows sum to zero until a rebuild drops them)."""
    chosen = StatsFilter(filters)
    return {
        "strategies": [(row.strategy, row.cells()) for row in strategy_table(chosen) if row.games],
        "seats": [
            (row.position, row.games, round(row.win_rate.value, 9))
            for row in position_advantages(chosen)["seat"]
            if row.games
        ],
        "bids": [
            (row.player_count, row.bid, row.games, row.wins)
            for row in first_player_by_bid(chosen)
            if row.games
        ],
        # By name: hexes tied on the page's sort key may swap with float rounding.
        "hexes": sorted(
            (row.hex, row.sample, round(row.taken, 9), round(row.offered, 9))
            for row in hex_table(chosen)
            if row.offered
        ),
    }


def pending_deltas() -> int:
    return sum(spec.delta.objects.count() for spec in CUBES)


def test_verifying_appends_deltas_and_writes_no_cube_row(
    queued_folds, django_capture_on_commit_callbacks
):
    with CaptureQueriesContext(connection) as queries:
        games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 3, seed="w")
    assert len(games) == 3
    writes = [query["sql"] for query in queries if CUBE_WRITE.search(query["sql"])]
    assert writes == []
    assert pending_deltas() > 0
    assert not any(spec.cube.objects.exists() or spec.rollup.objects.exists() for spec in CUBES)
    assert queued_folds == [{"countdown": aggregate.FOLD_DEBOUNCE_SECONDS}]  # one per window


@pytest.mark.parametrize("filters", FILTERS, ids=["rollup", "by-month"])
def test_pages_read_the_same_numbers_before_and_after_the_fold(unfolded_games, filters):
    before = pages(filters)
    assert sum(games for _, games, _ in before["seats"]) == 3 * 3 + 4 * 2
    assert fold_deltas() > 0
    assert pending_deltas() == 0
    assert pages(filters) == before


def test_a_fold_moves_every_delta_once(unfolded_games):
    fold_deltas()
    folded = pages(FILTERS[0])
    assert fold_deltas() == 0
    assert pages(FILTERS[0]) == folded


def test_a_retracted_game_is_taken_away_by_negative_deltas_before_any_fold(unfolded_games):
    fold_deltas()
    game = unfolded_games[0]
    game_retracted.send(sender=Game, game=game)
    # Three seats, each on its own strategy key here, each taken away once.
    assert sorted(StrategyCubeDelta.objects.values_list("n", flat=True)) == [-1, -1, -1]
    seats = sum(games for _, games, _ in pages(FILTERS[0])["seats"])
    assert seats == 3 * 3 + 4 * 2 - 3
    retracted = pages(FILTERS[1])
    game.delete()
    rebuild_all(from_facts=True)
    assert pending_deltas() == 0
    assert pages(FILTERS[1]) == retracted


def test_commits_queue_one_fold_until_that_fold_starts(queued_folds):
    aggregate.queue_fold()
    aggregate.queue_fold()
    assert len(queued_folds) == 1
    tasks.fold_deltas_task()  # clears the mark as it starts
    aggregate.queue_fold()
    assert len(queued_folds) == 2


@ON_POSTGRESQL
def test_a_fold_finding_another_running_leaves_the_deltas_and_queues_itself_again(
    unfolded_games, queued_folds
):
    db = settings.DATABASES["default"]
    with psycopg.connect(
        dbname=connection.settings_dict["NAME"],
        user=db["USER"],
        password=db["PASSWORD"],
        host=db["HOST"],
        port=db["PORT"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [aggregate.FOLD_LOCK])
        before = pending_deltas()
        queued_folds.clear()  # the verifying commits' own
        assert fold_deltas() is None
        tasks.fold_deltas_task()
        assert pending_deltas() == before
        assert len(queued_folds) == 1
        # Unlocked here, not by closing: a closed session's backend lets go of its locks
        # some time after the client has gone, and a loaded machine lets the fold in first.
        other.execute("SELECT pg_advisory_unlock(%s)", [aggregate.FOLD_LOCK])
    assert fold_deltas() == before


@ON_POSTGRESQL
@pytest.mark.django_db(transaction=True)
def test_two_transactions_counting_games_of_the_same_cube_keys_do_not_wait_for_each_other(
    queued_folds, django_capture_on_commit_callbacks
):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 4, seed="c")
    holding, release, errors = threading.Event(), threading.Event(), []

    def count_first_half_and_hold() -> None:
        try:
            with transaction.atomic():
                add_games(games[:2])
                holding.set()
                release.wait(timeout=60)
        except Exception as error:
            errors.append(error)
        finally:
            holding.set()
            connection.close()  # this thread's own

    first = threading.Thread(target=count_first_half_and_hold)
    first.start()
    try:
        assert holding.wait(timeout=60)
        with transaction.atomic():
            with connection.cursor() as cursor:  # a wait on the first's rows fails this
                cursor.execute("SET LOCAL lock_timeout = '5s'")
            add_games(games[2:])
    finally:
        release.set()
        first.join()
    assert errors == []


def test_the_beat_folds_in_the_periodic_queue():
    task = "stats.tasks.fold_deltas_task"
    assert task in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert celery_app.amqp.router.route({}, task)["queue"].name == "periodic"
