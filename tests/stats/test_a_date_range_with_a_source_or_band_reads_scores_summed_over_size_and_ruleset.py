"""The per-strategy page with a date range and a source or a band (no table size, no
ruleset) reads the score cube summed over table size and ruleset by month, source, band and
strategy (stats.models.ScoreCubeByMonthSourceAndBand, issue 25): the score boxes it draws
are those of the cube under the same filters. That the table equals the cube summed, kept up
game by game or rebuilt, is test_stats_aggregates' (every table of BY_MONTH)."""

from urllib.parse import urlencode

import pytest
from django.db.models import Sum
from django.http import QueryDict

from stats.filters import StatsFilter
from stats.models import (
    ScoreCube,
    ScoreCubeByMonthAndStrategyLive,
    ScoreCubeByMonthSourceAndBandLive,
    ScoreCubeLive,
    ScoreCubeRollupLive,
)
from stats.services import strategies
from stats.services.bands import ALL_BANDS, BANDS

DATES = "game=deep-vents&since=2020-01&until=2035-12"


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    from tests.stats_support import verified_games

    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 8, seed="band-3")
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 6, seed="band-4")
    verified_games(
        django_capture_on_commit_callbacks, "deep-vents", 3, 8, "band-human", None, "human"
    )


def score_counts_of_the_cube(filters: StatsFilter) -> dict:
    rows = (
        filters.apply(ScoreCubeLive.objects.all())
        .values("strategy", "score_bin")
        .order_by("strategy", "score_bin")
        .annotate(count=Sum("n"))
    )
    counts: dict = {}
    for row in rows:
        counts.setdefault(row["strategy"], []).append((row["score_bin"], row["count"]))
    return counts


@pytest.mark.parametrize(
    ("query", "view"),
    [
        ("game=deep-vents", ScoreCubeRollupLive),
        (DATES, ScoreCubeByMonthAndStrategyLive),
        (f"{DATES}&source=human", ScoreCubeByMonthSourceAndBandLive),
        (f"{DATES}&source=simulated&band={BANDS[0][1]}", ScoreCubeByMonthSourceAndBandLive),
        (f"{DATES}&band={BANDS[1][1]}&strategy=grower", ScoreCubeByMonthSourceAndBandLive),
        (f"{DATES}&source=human&players=3", ScoreCubeLive),
        (f"{DATES}&band={BANDS[0][1]}&ruleset=starting-bid", ScoreCubeLive),
    ],
)
def test_the_score_table_read_is_the_smallest_that_keeps_every_filter(query, view):
    assert StatsFilter(QueryDict(query)).view(ScoreCube) is view


@pytest.mark.django_db
def test_score_boxes_by_source_or_band_over_months_are_the_cubes(played):
    seen = 0
    bands = (urlencode({"band": band}) for band in ALL_BANDS)  # "1800+": not a space
    for extra in ("source=human", "source=simulated", *bands):
        filters = StatsFilter(QueryDict(f"{DATES}&{extra}"))
        assert filters.view(ScoreCube) is ScoreCubeByMonthSourceAndBandLive
        ours = strategies.counts_by_strategy(filters, ScoreCube, "score_bin")
        assert ours == score_counts_of_the_cube(filters), extra
        seen += len(ours) if extra.startswith("band") else 0
    assert seen  # some band has games
