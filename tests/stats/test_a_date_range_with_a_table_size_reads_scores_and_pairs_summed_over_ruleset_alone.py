"""The per-strategy page with a date range and a table size (no ruleset) reads its score bins
and its head-to-head table from the score and pair cubes summed over ruleset alone
(stats.models.ScoreCubeByMonthSourceSizeBandAndStrategy,
PairCubeByMonthSourceSizeBandAndStrategy; issue 25): what it shows is what the cubes give
under the same filters, to the last digit (counts sum the same in any order). That each
table equals its cube summed, kept up game by game or rebuilt, is test_stats_aggregates'
(every table of BY_MONTH)."""

from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from stats.filters import StatsFilter
from stats.models import (
    PairCube,
    PairCubeByMonthSourceSizeBandAndStrategyLive,
    PairCubeLive,
    ScoreCube,
    ScoreCubeByMonthSourceSizeBandAndStrategyLive,
    ScoreCubeLive,
)
from stats.services import strategies
from stats.services.bands import ALL_BANDS

DATES = "game=deep-vents&since=2020-01&until=2035-12"


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    from tests.stats_support import verified_games

    capture = django_capture_on_commit_callbacks
    verified_games(capture, "deep-vents", 3, 6, "size-3", {"name": "standard"})
    verified_games(capture, "deep-vents", 3, 6, "size-3s", {"name": "starting-bid"})
    verified_games(capture, "deep-vents", 4, 6, "size-4", {"name": "starting-bid"})
    verified_games(capture, "deep-vents", 3, 6, "size-human", {"name": "starting-bid"}, "human")


@pytest.mark.parametrize(
    ("query", "scores", "pairs"),
    [
        (f"{DATES}&players=3", ScoreCubeByMonthSourceSizeBandAndStrategyLive,
         PairCubeByMonthSourceSizeBandAndStrategyLive),
        (f"{DATES}&players=4&source=human&band=bot&strategy=grower",
         ScoreCubeByMonthSourceSizeBandAndStrategyLive,
         PairCubeByMonthSourceSizeBandAndStrategyLive),
        (f"{DATES}&players=3&ruleset=standard", ScoreCubeLive, PairCubeLive),
    ],
)  # fmt: skip
def test_the_score_and_pair_tables_read_with_a_table_size_keep_every_filter(query, scores, pairs):
    filters = StatsFilter(QueryDict(query))
    assert (filters.view(ScoreCube), filters.view(PairCube)) == (scores, pairs)


class FromTheCubes(StatsFilter):
    """The same filters, read from the cubes themselves (never a table by month)."""

    def view(self, cube):
        return {ScoreCube: ScoreCubeLive, PairCube: PairCubeLive}[cube]


def shown(filters: StatsFilter) -> tuple:
    """The score boxes and the head-to-head table as the page draws them."""
    return repr(strategies.score_distributions(filters)), repr(strategies.head_to_head(filters))


@pytest.mark.django_db
def test_score_boxes_and_head_to_head_by_table_size_over_months_are_the_cubes_exactly(played):
    seen = []
    bands = (urlencode({"band": band}) for band in ALL_BANDS)
    for extra in ("players=3", "players=4", "players=3&source=human", *bands):
        query = QueryDict(f"{DATES}&{extra}" if extra.startswith("players") else
                          f"{DATES}&players=3&{extra}")  # fmt: skip
        filters = StatsFilter(query)
        assert filters.view(ScoreCube) is ScoreCubeByMonthSourceSizeBandAndStrategyLive
        ours = shown(filters)
        assert ours == shown(FromTheCubes(query)), extra
        seen.append(ours)
    # Each size's and the human games' reading has scores and meetings; some band has games.
    assert all("Distribution(" in scores and "[[" in pairs for scores, pairs in seen[:3])
    assert any("Distribution(" in scores for scores, _ in seen[3:])
