"""Months read by source and table size name every ruleset of the game (StatsFilter
.every_ruleset), so that the cube's key reads only those months (issue 25): the pages read
the same rows as without the rulesets named, games of each ruleset counted."""

import pytest
from django.http import QueryDict

from stats.filters import StatsFilter
from stats.services import strategies
from tests.stats.test_stats_queries_are_compiled_once_per_shape import SERVICES

SHAPE = "game=deep-vents&source=simulated&players=3&since=2020-01&until=2035-12"


@pytest.mark.django_db
def test_every_service_reads_the_rows_it_read_without_the_rulesets_named(
    django_capture_on_commit_callbacks, monkeypatch
):
    from tests.stats_support import verified_games

    capture = django_capture_on_commit_callbacks
    verified_games(capture, "deep-vents", 3, 5, seed="rulesets-s", ruleset={"name": "standard"})
    verified_games(capture, "deep-vents", 3, 4, seed="rulesets-b", ruleset={"name": "starting-bid"})
    filters = StatsFilter(QueryDict(SHAPE))
    assert filters.every_ruleset() == ["standard", "starting-bid"]
    assert sum(row.games for row in strategies.strategy_table(filters)) == (5 + 4) * 3
    named = [service(filters) for service in SERVICES]
    with monkeypatch.context() as patch:
        patch.setattr(StatsFilter, "every_ruleset", lambda self: None)
        assert [service(filters) for service in SERVICES] == named


@pytest.mark.parametrize(
    "query",
    [
        "game=deep-vents&source=simulated&players=3",  # no months: the rollup
        "game=deep-vents&players=3&since=2020-01",  # no source
        "game=deep-vents&source=human&since=2020-01",  # no table size
        "game=deep-vents&source=human&players=3&ruleset=standard&since=2020-01",  # chosen
    ],
)
def test_other_shapes_name_no_ruleset(query):
    assert StatsFilter(QueryDict(query)).every_ruleset() is None
