"""The per-strategy page with a date range and a source, a table size or a band (no ruleset)
reads its fair-bid and seat charts from the bid and seat cubes summed over ruleset and
strategy, and its head-to-head table from the pair cube summed over table size and ruleset
(stats.models.BidCubeByMonthSourceSizeAndBand, SeatCubeByMonthSourceSizeAndBand,
PairCubeByMonthSourceAndBand; issue 25). What it shows is what the cubes give under the same
filters. That each table equals its cube summed, kept up game by game or rebuilt, is
test_stats_aggregates' (every table of BY_MONTH)."""

from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from stats.filters import StatsFilter
from stats.models import (
    BidCube,
    BidCubeByMonthAndStrategyLive,
    BidCubeByMonthSourceSizeAndBandLive,
    BidCubeLive,
    PairCube,
    PairCubeByMonthAndStrategyLive,
    PairCubeByMonthSourceAndBandLive,
    PairCubeLive,
    SeatCube,
    SeatCubeByMonthAndStrategyLive,
    SeatCubeByMonthSourceSizeAndBandLive,
    SeatCubeLive,
)
from stats.services import compiled, strategies
from stats.services.bands import ALL_BANDS, BANDS

DATES = "game=deep-vents&since=2020-01&until=2035-12"
BAND = urlencode({"band": BANDS[1][1]})  # "1800+": not a space


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    from tests.stats_support import verified_games

    capture = django_capture_on_commit_callbacks
    verified_games(capture, "deep-vents", 3, 6, seed="by-size-3")
    verified_games(capture, "deep-vents", 4, 6, "by-size-4", {"name": "starting-bid"})
    verified_games(capture, "deep-vents", 4, 4, "by-size-4s", {"name": "standard"})
    verified_games(capture, "deep-vents", 3, 6, "by-size-human", {"name": "starting-bid"}, "human")


@pytest.mark.parametrize(
    ("query", "seats", "bids", "pairs"),
    [
        (DATES, SeatCubeByMonthAndStrategyLive, BidCubeByMonthAndStrategyLive,
         PairCubeByMonthAndStrategyLive),
        (f"{DATES}&source=human", SeatCubeByMonthSourceSizeAndBandLive,
         BidCubeByMonthSourceSizeAndBandLive, PairCubeByMonthSourceAndBandLive),
        (f"{DATES}&{BAND}&players=4&source=human", SeatCubeByMonthSourceSizeAndBandLive,
         BidCubeByMonthSourceSizeAndBandLive, PairCubeLive),
        (f"{DATES}&{BAND}&strategy=grower", SeatCubeLive, BidCubeLive,
         PairCubeByMonthSourceAndBandLive),
        (f"{DATES}&players=3&ruleset=standard", SeatCubeLive, BidCubeLive, PairCubeLive),
    ],
)  # fmt: skip
def test_the_seat_bid_and_pair_tables_read_are_the_smallest_that_keep_every_filter(
    query, seats, bids, pairs
):
    filters = StatsFilter(QueryDict(query))
    assert (filters.view(SeatCube), filters.view(BidCube), filters.view(PairCube)) == (
        seats,
        bids,
        pairs,
    )


QUERIES = (strategies.POSITION_ADVANTAGES, strategies.FIRST_PLAYER_BY_BID, strategies.HEAD_TO_HEAD)


def charts_of(filters: StatsFilter) -> list:
    """The rows the page draws its seat, bid and pair charts from under these filters, in
    order, sums rounded against float drift (the same lines summed in another order)."""
    return [
        sorted(
            tuple((k, round(v, 9) if isinstance(v, float) else v) for k, v in row.items())
            for row in compiled.rows(filters, *query)
        )
        for query in QUERIES
    ]


class FromTheCubes(StatsFilter):
    """The same filters, read from the cubes themselves (never a table by month)."""

    def view(self, cube):
        return {SeatCube: SeatCubeLive, BidCube: BidCubeLive, PairCube: PairCubeLive}[cube]


@pytest.mark.django_db
def test_seat_bid_and_pair_charts_by_source_size_or_band_over_months_are_the_cubes(played):
    read = []
    bands = (urlencode({"band": band}) for band in ALL_BANDS)
    for extra in (
        "source=human",
        "source=simulated",
        "players=4",
        "players=3&source=human",
        f"players=4&source=simulated&{BAND}",
        *bands,
    ):
        query = QueryDict(f"{DATES}&{extra}")
        filters = StatsFilter(query)
        assert filters.view(BidCube) is not BidCubeLive  # a table by month
        ours = charts_of(filters)
        assert ours == charts_of(FromTheCubes(query)), extra
        read.append(ours)
    # Each source's and size's reading has seats and pairs; some bids (the starting-bid
    # games'); some band has games.
    assert all(seats and pairs for seats, _, pairs in read[:4])
    assert any(seats for seats, _, _ in read[5:])
    assert any(bids for _, bids, _ in read)
