"""The strategy and bid cubes sum each seat's par (1 / its table size) as PAR_SCALE / table
size, a whole number, as the seat cube does, and the hex cube its par-weighted twins (a flag
times its seat's par, HEX_PAR) the same way (stats 0017, 0018): the line sums keep whole
counters as ints from the first line on (CubeSpec.zeros, no cast when they are stored), so
the deltas, a fold, a rebuild and every table summed over some keys hold the same figures
to the last digit, and the pages divide by PAR_SCALE to show what the float sums showed."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import IntegerField, Sum
from django.http import QueryDict

from games.models import Game, Source
from games.signals import game_retracted
from stats.filters import StatsFilter
from stats.models import (
    BY_MONTH,
    BY_MONTH_LIVE,
    DELTAS,
    HEX_COUNTERS,
    HEX_LINE_COUNTERS,
    HEX_PAR,
    LIVE,
    NO_BID,
    PAR_SCALE,
    ROLLUPS,
    BidCube,
    HexCube,
    SeatCube,
    StrategyCube,
)
from stats.services import hex_packing, hexes, strategies
from stats.services.aggregate import (
    CUBES,
    SUMMED,
    built_line_sums,
    fold_deltas,
    line_sums,
    lines_replayed,
    rebuild_all,
    verified_games,
)
from stats.services.intervals import relative_rate, shrunk_relative_rate
from tests.stats_support import seat_lines_of
from tests.stats_support import verified_games as play

# Per cube made whole here, its par columns.
PAR_COLUMNS = {StrategyCube: ("expected",), BidCube: ("expected",), HexCube: HEX_PAR}
SPECS = {spec.cube: spec for spec in CUBES}


def games_at_three_and_four_seats(capture) -> list[Game]:
    """Three- and four-player games (par 1/3 and 1/4 a seat: 1/3 is no exact float), with
    and without bidding, simulated and human."""
    games = play(capture, "deep-vents", 3, 4, seed="whole-3", ruleset={"name": "standard"})
    games += play(capture, "deep-vents", 4, 3, "whole-4", {"name": "starting-bid"})
    games += play(capture, "deep-vents", 3, 3, "whole-h", {"name": "starting-bid"}, "human")
    return games


@pytest.fixture
def played(db, django_capture_on_commit_callbacks) -> list[Game]:
    return games_at_three_and_four_seats(django_capture_on_commit_callbacks)


def test_whole_counters_come_out_of_the_line_sums_as_ints_and_the_rest_as_floats(played):
    strategy, bid = SPECS[StrategyCube], SPECS[BidCube]
    assert strategy.zeros == (0, 0.0, 0, 0.0, 0.0, 0.0)  # n, wins, expected, score, ...
    assert bid.zeros == (0, 0.0, 0)
    assert SPECS[SeatCube].zeros == (0, 0.0, 0, 0.0)
    whole = [at for at, zero in enumerate(SPECS[HexCube].zeros) if isinstance(zero, int)]
    assert whole == [0, *(1 + HEX_COUNTERS.index(name) for name in HEX_PAR)]
    # The simulated games: a human game's band is its players' rating, which their games
    # verified since have moved, so replaying it now may put it in another band.
    simulated = [game for game in verified_games() if game.source == Source.SIMULATED]
    summed = line_sums([game.pk for game in simulated])
    built = built_line_sums(lines_replayed(simulated))
    assert built == summed and len(simulated) == 7
    for sums in (summed, built):
        for spec in SUMMED:
            kinds = [type(zero) for zero in spec.zeros]
            for key, total in sums[spec].items():
                assert [type(value) for value in total] == kinds, (spec.cube.__name__, key)
        for key, (n, _, expected, *_) in sums[strategy].items():
            player_count = key[2]
            assert expected == n * PAR_SCALE // player_count, key


def par_tables(cube) -> list:
    """The cube and every table the fold keeps summed from it (stats.models)."""
    return [cube, DELTAS[cube], ROLLUPS[cube], *BY_MONTH[cube]]


def live_views(cube) -> list:
    return [*LIVE[cube], *BY_MONTH_LIVE[cube]]


def test_every_row_holds_its_seats_par_in_whole_numbers(played):
    assert all(cube.objects.exists() or DELTAS[cube].objects.exists() for cube in PAR_COLUMNS)
    for _ in ("the deltas", "folded"):
        for cube, columns in PAR_COLUMNS.items():
            for table in par_tables(cube):
                for column in columns:
                    assert isinstance(table._meta.get_field(column), IntegerField)
                for row in table.objects.values():
                    for column in columns:
                        assert float(row[column]).is_integer(), (table.__name__, row)
                    if "player_count" in row and "expected" in row:
                        par = row["n"] * PAR_SCALE // row["player_count"]
                        assert row["expected"] == par, (table.__name__, row)
        fold_deltas()
    assert all(DELTAS[cube].objects.count() == 0 for cube in PAR_COLUMNS)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite keeps the column's type")
def test_every_table_and_live_view_stores_its_par_as_a_bigint(db):
    wanted = {
        (table._meta.db_table, column): "bigint"
        for cube, columns in PAR_COLUMNS.items()
        for table in par_tables(cube) + live_views(cube)
        for column in columns
    }
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE column_name = ANY(%s) AND table_name = ANY(%s)",
            [list({c for _, c in wanted}), list({t for t, _ in wanted})],
        )
        kinds = {(table, column): kind for table, column, kind in cursor.fetchall()}
    assert kinds == wanted


def summed_by_keys(view, keys: list[str], columns: tuple[str, ...]) -> dict:
    """A live view's n and par columns summed by these keys, by the database (exact)."""
    rows = view.objects.values(*keys).order_by()
    rows = rows.annotate(s_n=Sum("n"), **{f"s_{c}": Sum(c) for c in columns})
    return {
        tuple(r[k] for k in keys): tuple(r[f"s_{c}"] for c in ("n", *columns))
        for r in rows
        if r["s_n"]
    }


def par_state() -> dict:
    """Per strategy, bid and hex table, its live view's sums by its keys, each equal to the
    cube's live view summed by the same keys to the last digit."""
    state = {}
    for cube, columns in PAR_COLUMNS.items():
        counters = ("n", *SPECS[cube].counters)
        cube_view, *views = live_views(cube)
        for view in (cube_view, *views):
            kept = [f.name for f in view._meta.concrete_fields]
            keys = [name for name in kept if name not in ("id", *counters)]
            state[view.__name__] = summed_by_keys(view, keys, columns)
            assert state[view.__name__] == summed_by_keys(cube_view, keys, columns), view
        assert state[cube_view.__name__], cube_view.__name__
    return state


def test_unfolded_folded_and_rebuilt_tables_hold_the_same_par_before_and_after_a_retraction(
    played,
):
    unfolded = par_state()  # the deltas, not folded yet
    fold_deltas()
    assert par_state() == unfolded
    rebuild_all()
    assert par_state() == unfolded
    game_retracted.send(sender=Game, game=played[0])
    retracted = par_state()
    assert retracted != unfolded
    fold_deltas()
    assert par_state() == retracted
    rebuild_all()
    assert par_state() == retracted


def float_par(games: list[Game], counted) -> dict:
    """The old figures: per key, the seats' n, wins and par summed as floats (1 / size)."""
    sums: dict = {}
    for game in games:
        for seat in seat_lines_of(game):
            key = counted(seat)
            if key is not None:
                n, wins, expected = sums.get(key, (0, 0.0, 0.0))
                sums[key] = (n + 1, wins + seat.wins, expected + seat.expected)
    return sums


def float_hex_par(games: list[Game], flag: str) -> dict:
    """The old hex figures: per hex type, the lines flagged, their wins and par summed as
    floats (the flag times 1 / size)."""
    sums: dict = {}
    at = HEX_LINE_COUNTERS.index(flag)
    for game in games:
        seats = {line.seat: line for line in seat_lines_of(game)}
        for seat, hex_id, *counts in hex_packing.unpack(bytes(game.stat_hexes.packed)):
            n, wins, expected = sums.get(hex_id, (0, 0.0, 0.0))
            line = seats[seat]
            sums[hex_id] = (
                n + counts[at],
                wins + counts[at] * line.wins,
                expected + counts[at] * line.expected,
            )
    return sums


def close(ours: float | None, theirs: float | None) -> bool:
    if ours is None or theirs is None:
        return ours is theirs
    return abs(ours - theirs) <= 1e-12 * max(abs(theirs), 1.0)


def estimates_close(ours, theirs) -> bool:
    return all(close(getattr(ours, f), getattr(theirs, f)) for f in ("value", "low", "high"))


@pytest.mark.parametrize("query", ["game=deep-vents", "game=deep-vents&since=2020-01"])
def test_the_strategy_table_bid_chart_and_hex_rates_show_what_the_float_sums_showed(played, query):
    fold_deltas()
    table = strategies.strategy_table(StatsFilter(QueryDict(query)))
    old = float_par(played, lambda seat: seat.strategy)
    assert {row.strategy for row in table} == set(old)
    for row in table:
        n, wins, expected = old[row.strategy]
        assert (row.games, row.wins) == (n, wins)
        assert close(row.expected, expected), (row.strategy, row.expected, expected)
        assert estimates_close(row.relative, shrunk_relative_rate(wins, expected, n))

    def first_with_a_bid(seat):
        if seat.turn_order == 1 and seat.winning_bid != NO_BID:
            return seat.player_count, seat.winning_bid
        return None

    bids = strategies.first_player_by_bid(StatsFilter(QueryDict(query)))
    old = float_par(played, first_with_a_bid)
    assert {(row.player_count, row.bid) for row in bids} == set(old) and old
    for row in bids:
        n, wins, expected = old[row.player_count, row.bid]
        assert (row.games, row.wins) == (n, wins)
        assert estimates_close(row.relative, relative_rate(wins, expected, n)), row

    rows = hexes.hex_table(StatsFilter(QueryDict(query)))
    owned, passed = float_hex_par(played, "owned"), float_hex_par(played, "passed")
    assert {row.hex for row in rows} == set(owned) and rows
    for row in rows:
        for old, rate in ((owned, row.owned_rate), (passed, row.passed_rate)):
            n, wins, expected = old[row.hex]
            assert estimates_close(rate, shrunk_relative_rate(wins, expected, n)), row.hex


BEFORE_WHOLE_PAR = [
    ("stats", "0017_seat_par_in_whole_numbers_and_seats_by_month_source_size_and_band")
]


def stored_par() -> dict:
    """Every row of the tables made whole but their ids."""
    return {
        table.__name__: sorted(
            table.objects.values_list(
                *(f.name for f in table._meta.concrete_fields if f.name != "id")
            )
        )
        for cube in PAR_COLUMNS
        for table in par_tables(cube)
    }


def par_sums() -> dict:
    """Each live view's par columns summed, by SQL (the views are created again by 0018)."""
    quote = connection.ops.quote_name
    sums = {}
    with connection.cursor() as cursor:
        for cube, columns in PAR_COLUMNS.items():
            for view in live_views(cube):
                summed = ", ".join(f"SUM({quote(column)})" for column in columns)
                cursor.execute(f"SELECT {summed} FROM {quote(view._meta.db_table)}")
                sums[view.__name__] = [float(value) for value in cursor.fetchone()]
    return sums


@pytest.mark.django_db(transaction=True)
def test_the_par_goes_back_to_floats_and_forward_to_the_same_whole_numbers(
    django_capture_on_commit_callbacks,
):
    games_at_three_and_four_seats(django_capture_on_commit_callbacks)
    fold_deltas()
    before, whole = stored_par(), par_sums()
    assert all(value > 0 and value.is_integer() for sums in whole.values() for value in sums)
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_WHOLE_PAR)
    try:
        for view, sums in par_sums().items():
            assert sums == pytest.approx([v / PAR_SCALE for v in whole[view]], rel=1e-12), view
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert stored_par() == before
