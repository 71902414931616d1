"""The seat cube sums each seat's par (1 / its table size) as PAR_SCALE / table size, a whole
number (stats.models.PAR_SCALE), so its sums are exact in any order: two folds of the same
seats, a rebuild, and a table summed over some keys (the seat cube by month, source, table
size and band, which the seat chart reads with a date range and a source, size or band)
all hold the same figures to the last digit, with no rounding (issue 25). Floats of 1/3 a
seat differed in the 16th digit between two folds."""

from urllib.parse import urlencode

import pytest
from django.db.models import Sum
from django.http import QueryDict

from engines.registry import GAMES, get_game
from games.models import Game
from games.signals import game_retracted
from stats.filters import StatsFilter
from stats.models import (
    PAR_SCALE,
    SeatCube,
    SeatCubeByMonthSourceSizeAndBandLive,
    SeatCubeLive,
)
from stats.services import strategies
from stats.services.aggregate import fold_deltas, rebuild_all
from stats.services.bands import ALL_BANDS

pytestmark = pytest.mark.django_db
DATES = "game=deep-vents&since=2020-01&until=2035-12"
KEYS = ("game_type", "month", "source", "player_count", "band", "seat", "turn_order")


@pytest.fixture
def played(django_capture_on_commit_callbacks) -> list[Game]:
    """Three- and four-player games (par 1/3 and 1/4 a seat), simulated and human."""
    from tests.stats_support import verified_games

    capture = django_capture_on_commit_callbacks
    games = verified_games(capture, "deep-vents", 3, 5, seed="par-3")
    games += verified_games(capture, "deep-vents", 4, 4, "par-4", {"name": "starting-bid"})
    games += verified_games(capture, "deep-vents", 3, 4, "par-h", {"name": "starting-bid"}, "human")
    return games


def test_par_is_a_whole_number_at_every_table_size_a_game_allows():
    for game_id in GAMES:
        game = get_game(game_id)
        for size in range(game.min_players, game.max_players + 1):
            assert PAR_SCALE % size == 0, (game_id, size)


def test_each_seat_cube_row_holds_its_seats_par_exactly(played):
    for live in (True, False):
        rows = (SeatCubeLive if live else SeatCube).objects.values(*KEYS, "ruleset", "strategy")
        summed = rows.order_by().annotate(seats=Sum("n"), par=Sum("expected"))
        assert summed
        for row in summed:
            assert row["par"] == row["seats"] * PAR_SCALE // row["player_count"], row
        fold_deltas()


def seat_tables() -> tuple[dict, dict]:
    """The summed table's keys and sums, and the seat cube's summed over ruleset and
    strategy by the database: exact figures, no rounding."""

    def summed(view) -> dict:
        rows = view.objects.values(*KEYS).order_by()
        return {
            tuple(r[k] for k in KEYS): (r["s_n"], r["s_w"], r["s_e"], r["s_s"])
            for r in rows.annotate(
                s_n=Sum("n"), s_w=Sum("wins"), s_e=Sum("expected"), s_s=Sum("score")
            )
            if r["s_n"]
        }

    return summed(SeatCubeByMonthSourceSizeAndBandLive), summed(SeatCubeLive)


def test_the_summed_seat_table_is_the_cube_to_the_last_digit_folded_rebuilt_or_retracted(
    played,
):
    table, cube = seat_tables()  # the deltas, not folded yet
    assert table == cube and table
    fold_deltas()
    assert seat_tables() == (table, table)
    rebuild_all()
    assert seat_tables() == (table, table)
    game_retracted.send(sender=Game, game=played[0])
    retracted, cube = seat_tables()
    assert retracted == cube != table
    assert sum(n for n, *_ in retracted.values()) == sum(n for n, *_ in table.values()) - 3
    fold_deltas()
    assert seat_tables() == (retracted, retracted)
    rebuild_all()
    assert seat_tables() == (retracted, retracted)


class FromTheCube(StatsFilter):
    """The same filters, read from the seat cube itself (never a table by month)."""

    def view(self, cube):
        return SeatCubeLive if cube is SeatCube else super().view(cube)


def test_the_seat_chart_by_source_size_or_band_over_months_is_the_cubes_exactly(played):
    fold_deltas()
    extras = ["source=human", "source=simulated", "players=3", "players=4&source=simulated"]
    extras += [urlencode({"band": band}) for band in ALL_BANDS]
    drawn = []
    for extra in extras:
        query = QueryDict(f"{DATES}&{extra}")
        filters = StatsFilter(query)
        assert filters.view(SeatCube) is SeatCubeByMonthSourceSizeAndBandLive, extra
        ours = strategies.position_advantages(filters)
        assert ours == strategies.position_advantages(FromTheCube(query)), extra
        drawn.append(ours)
    assert all(chart["seat"] and chart["turn_order"] for chart in drawn[:4])
