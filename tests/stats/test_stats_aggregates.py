"""The cubes always equal the sum of the verified games' lines, however they got there.

Verification appends deltas that a fold moves into the cubes (stats/services/aggregate.py):
every snapshot here is taken from the live views pages read (cubes plus deltas not folded
yet), checked equal to the cubes once folded, so incremental means "appended and folded".
"""

import datetime

import pytest
from django.db.models import Sum

from games.models import Game
from games.signals import game_retracted
from stats.models import (
    BY_MONTH_LIVE,
    LIVE,
    HexCube,
    HexCubeByMonthLive,
    HexCubeDelta,
    RoundCube,
    ScoreCubeByMonthAndStrategyLive,
    SeatLines,
    StrategyCube,
)
from stats.services.aggregate import CUBES, add_game, fold_deltas, rebuild_all
from tests.stats_support import seat_lines_of, verified_games

pytestmark = pytest.mark.django_db


def summed_by_key(rows, key_fields: tuple[str, ...], counters: tuple[str, ...]) -> dict:
    """Rows summed per key (a live view holds a key's cube row and its deltas), the keys
    with a non-zero count, counters rounded against float drift."""
    totals = (
        rows.values(*key_fields)
        .order_by()
        .annotate(**{f"total_{name}": Sum(name) for name in ("n", *counters)})
    )
    return {
        tuple(row[k] for k in key_fields): {
            name: round(row[f"total_{name}"], 6) for name in ("n", *counters)
        }
        for row in totals
        if row["total_n"]
    }


def snapshot_of(tables: dict) -> dict:
    return {
        (spec.cube.__name__, key): counters
        for spec in CUBES
        for key, counters in summed_by_key(
            tables[spec.cube].objects.all(), spec.key_fields, spec.counters
        ).items()
    }


def cube_snapshot() -> dict:
    """Every cube key with a non-zero count as pages read it; the same once folded."""
    live = snapshot_of({cube: views[0] for cube, views in LIVE.items()})
    fold_deltas()
    assert snapshot_of({spec.cube: spec.cube for spec in CUBES}) == live
    assert not any(spec.delta.objects.exists() for spec in CUBES)
    return live


@pytest.fixture
def mixed_games(django_capture_on_commit_callbacks):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 4, seed="a")
    games += verified_games(django_capture_on_commit_callbacks, "deep-vents", 2, 2, seed="b")
    games += verified_games(django_capture_on_commit_callbacks, "deep-dive", 4, 3, seed="c")
    games += verified_games(
        django_capture_on_commit_callbacks, "deep-sea-adventure", 3, 3, seed="d"
    )
    return games


def test_verified_games_are_counted_as_they_are_verified(mixed_games):
    assert len(mixed_games) == 12
    seats = StrategyCube.objects.filter(game_type="deep-vents").aggregate(n=Sum("n"))["n"]
    assert seats == 4 * 3 + 2 * 2
    assert HexCube.objects.filter(taken__gt=0).exists()
    assert RoundCube.objects.filter(game_type="deep-dive").exists()
    assert RoundCube.objects.filter(game_type="deep-sea-adventure").exists()


def test_incremental_cubes_equal_a_rebuild_from_scratch(mixed_games):
    incremental = cube_snapshot()
    rebuild_all()
    assert cube_snapshot() == incremental
    rebuild_all(from_facts=True)
    assert cube_snapshot() == incremental


def test_counting_a_game_twice_counts_it_once(mixed_games):
    before = cube_snapshot()
    add_game(mixed_games[0])
    assert cube_snapshot() == before
    assert len(seat_lines_of(mixed_games[0])) == 3


def test_a_retracted_game_leaves_every_cube(mixed_games):
    game = mixed_games[0]
    live = LIVE[StrategyCube][0].objects
    before = live.aggregate(n=Sum("n"))["n"]
    game_retracted.send(sender=Game, game=game)
    game_retracted.send(sender=Game, game=game)  # idempotent
    assert live.aggregate(n=Sum("n"))["n"] == before - 3
    assert not SeatLines.objects.filter(game=game).exists()
    game.delete()
    retracted = cube_snapshot()
    rebuild_all(from_facts=True)
    assert cube_snapshot() == retracted


def test_a_rejected_log_is_not_counted(django_capture_on_commit_callbacks):
    import json

    from engines.core.simulate import simulate
    from engines.registry import get_game
    from games.services.intake import submit_log

    game = get_game("deep-vents")
    log = next(simulate(game, game.ruleset(None), 2, 1, "rejected"))
    log["result"]["scores"] = [s + 1 for s in log["result"]["scores"]]
    with django_capture_on_commit_callbacks(execute=True):
        stored = submit_log(json.dumps(log), user=None, source="simulated")
    stored.refresh_from_db()
    assert stored.status == "rejected"
    assert not StrategyCube.objects.exists()


def rollup_snapshot() -> dict:
    """Every rollup key with a non-zero count, as pages without a date filter read it."""
    return {
        (spec.cube.__name__, key): counters
        for spec in CUBES
        for key, counters in summed_by_key(
            LIVE[spec.cube][1].objects.all(), spec.rollup_key_fields, spec.counters
        ).items()
    }


def cubes_over_months() -> dict:
    """The live cubes summed over the month by the database, shaped like rollup_snapshot()."""
    return {
        (spec.cube.__name__, key): counters
        for spec in CUBES
        for key, counters in summed_by_key(
            LIVE[spec.cube][0].objects.all(), spec.rollup_key_fields, spec.counters
        ).items()
    }


def test_rollups_equal_their_cubes_summed_over_months(mixed_games):
    """Pages without a date filter read the rollups, so they must hold the cubes' sums,
    whether kept up game by game or rebuilt."""
    for game in mixed_games[::2]:
        game.played_at -= datetime.timedelta(days=62)
        game.save(update_fields=["played_at"])
        add_game(game)
    incremental = rollup_snapshot()
    assert incremental == cubes_over_months()  # the deltas, not folded yet
    fold_deltas()
    assert StrategyCube.objects.values("month").distinct().count() > 1
    assert rollup_snapshot() == incremental
    assert incremental == cubes_over_months()
    rebuild_all()
    assert rollup_snapshot() == incremental


def by_month_snapshot() -> dict:
    """Every key of every table by month (stats.models.BY_MONTH), as pages with a date range
    read them."""
    return {
        (view.__name__, key): counters
        for spec in CUBES
        for (_, keys), view in zip(spec.rollups[1:], BY_MONTH_LIVE[spec.cube], strict=True)
        for key, counters in summed_by_key(view.objects.all(), keys, spec.counters).items()
    }


def cubes_summed_by_month() -> dict:
    """The live cubes summed over the keys each table by month drops, by the database,
    shaped like by_month_snapshot()."""
    return {
        (view.__name__, key): counters
        for spec in CUBES
        for (_, keys), view in zip(spec.rollups[1:], BY_MONTH_LIVE[spec.cube], strict=True)
        for key, counters in summed_by_key(
            LIVE[spec.cube][0].objects.all(), keys, spec.counters
        ).items()
    }


def test_each_table_by_month_equals_its_cube_summed_over_the_keys_it_drops(mixed_games):
    """Pages with a date range read them (stats.filters): the hex cube summed over strategies,
    the others over source, table size, ruleset and band; kept up game by game or rebuilt."""
    for game in mixed_games[::2]:
        game.played_at -= datetime.timedelta(days=62)
        game.save(update_fields=["played_at"])
        add_game(game)
    incremental = by_month_snapshot()
    assert {table for table, _ in incremental} == {
        view.__name__ for views in BY_MONTH_LIVE.values() for view in views
    }
    assert HexCubeByMonthLive.objects.values("month").distinct().count() > 1
    assert ScoreCubeByMonthAndStrategyLive.objects.values("month").distinct().count() > 1
    assert incremental == cubes_summed_by_month()  # the deltas, not folded yet
    fold_deltas()
    assert not HexCubeDelta.objects.exists()
    assert by_month_snapshot() == incremental == cubes_summed_by_month()
    rebuild_all()
    assert by_month_snapshot() == incremental


def test_the_round_cube_sums_each_rounds_points_drownings_and_depths(mixed_games):
    """Each counter from the line field of its name (the lines are summed in Python)."""
    from collections import defaultdict

    from stats.services.lines import build_lines

    derived = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for game in mixed_games:
        for row in build_lines(Game.objects.get(pk=game.pk)).rounds:
            total = derived[(game.game_type, row.round, row.moment)]
            for at, value in enumerate((1, row.points, row.drowned, row.depth)):
                total[at] += value
    fold_deltas()

    summed = (
        RoundCube.objects.values_list("game_type", "round", "moment")
        .order_by()
        .annotate(Sum("n"), Sum("points"), Sum("drowned"), Sum("depth"))
    )
    assert {(t, r, m): list(sums) for t, r, m, *sums in summed} == derived
    assert {game_type for game_type, _, _ in derived} == {"deep-dive", "deep-sea-adventure"}
    assert any(points != depth for _, points, _, depth in derived.values())
