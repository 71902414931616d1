"""The per-hex page with a date range and no filter but a source or a band reads the hex
cube summed over table size, ruleset and strategy by month, source, band and hex
(stats.models.HexCubeByMonthSourceAndBand, issue 25): its table is the cube's under the same
filters. That the table equals the cube summed, kept up game by game or rebuilt, is
test_stats_aggregates' (every table of BY_MONTH)."""

from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from stats.filters import StatsFilter
from stats.models import (
    HexCube,
    HexCubeByMonthLive,
    HexCubeByMonthSourceAndBandLive,
    HexCubeLive,
    HexCubeRollupLive,
)
from stats.services import hexes
from stats.services.bands import ALL_BANDS

DATES = "game=deep-vents&since=2020-01&until=2035-12"


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    from tests.stats_support import verified_games

    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 8, seed="hexband-3")
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 6, seed="hexband-4")
    verified_games(
        django_capture_on_commit_callbacks, "deep-vents", 3, 8, "hexband-human", None, "human"
    )


@pytest.mark.parametrize(
    ("query", "view"),
    [
        ("game=deep-vents", HexCubeRollupLive),
        (DATES, HexCubeByMonthSourceAndBandLive),
        (f"{DATES}&source=human", HexCubeByMonthSourceAndBandLive),
        (f"{DATES}&source=simulated&band=bot", HexCubeByMonthSourceAndBandLive),
        (f"{DATES}&band=unrated&players=3", HexCubeByMonthLive),
        (f"{DATES}&ruleset=starting-bid", HexCubeByMonthLive),
        (f"{DATES}&strategy=grower", HexCubeLive),
    ],
)
def test_the_hex_table_read_is_the_smallest_that_keeps_every_filter(query, view):
    assert StatsFilter(QueryDict(query)).view(HexCube) is view


def totals_of_the_cube(filters: StatsFilter) -> dict:
    return {
        row.pop("hex"): {name: value or 0.0 for name, value in row.items()}
        for row in hexes.summed_by_hex(filters.apply(HexCubeLive.objects.all()))
    }


@pytest.mark.django_db
def test_hex_tables_over_months_by_source_or_band_are_the_cubes(played):
    seen = 0
    bands = (urlencode({"band": band}) for band in ALL_BANDS)  # "1800+": not a space
    for extra in ("", "source=human", "source=simulated", *bands):
        filters = StatsFilter(QueryDict(f"{DATES}&{extra}"))
        assert filters.view(HexCube) is HexCubeByMonthSourceAndBandLive
        ours = {row.hex: row.totals for row in hexes.hex_table(filters)}
        cubes = totals_of_the_cube(filters)
        assert ours.keys() == cubes.keys(), extra
        for hex_id, totals in ours.items():
            assert totals == pytest.approx(cubes[hex_id]), (extra, hex_id)
        seen += len(ours) if extra.startswith("band") else 0
    assert seen  # some band has games
