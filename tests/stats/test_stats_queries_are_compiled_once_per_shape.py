"""The statistics pages' queries are compiled to SQL once per shape (stats.services.compiled):
for every filter, alone and together, each query gives the rows the ORM gives for the same
filters, values and their types alike, whichever query of the same shape came before."""

import pytest
from django.http import QueryDict

from stats.adapters import hex_games
from stats.filters import StatsFilter
from stats.services import compiled, hexes, strategies
from stats.services.bands import BANDS

QUERIES = [
    "game=deep-vents",
    "game=deep-vents&since=2020-01&until=2035-12",
    "game=deep-vents&since=2035-01",
    "game=deep-vents&players=3",
    "game=deep-vents&players=4",
    "game=deep-vents&source=simulated",
    "game=deep-vents&source=human",
    "game=deep-vents&source=tournament",
    "game=deep-vents&strategy=greedy",
    "game=deep-vents&ruleset=starting-bid",
    f"game=deep-vents&band={BANDS[0][1]}",
    "game=deep-vents&since=2020-01&until=2035-12&players=3&source=simulated",
    "game=deep-dive",
    "game=deep-dive&players=3&since=2020-01",
]


def hex_totals(filters: StatsFilter) -> list[tuple[str, dict]]:
    if filters.game_id not in hex_games():
        return []
    return [(row.hex, row.totals) for row in hexes.hex_table(filters)]


SERVICES = [
    hex_totals,
    strategies.strategy_table,
    strategies.head_to_head,
    strategies.score_distributions,
    strategies.position_advantages,
    strategies.first_player_by_bid,
    strategies.rounds_by_strategy,
    strategies.moments_by_strategy,
]


def through_the_orm(monkeypatch, service, filters):
    """The service with each query built and compiled by the ORM, as before."""
    with monkeypatch.context() as patch:
        patch.setattr(
            compiled, "rows", lambda filters, cube, name, query: list(query(filters.rows(cube)))
        )
        return service(filters)


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    from tests.stats_support import verified_games

    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 8, seed="compiled-3")
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 6, seed="compiled-4")
    verified_games(django_capture_on_commit_callbacks, "deep-dive", 3, 4, seed="compiled-dd")


@pytest.mark.django_db
def test_every_query_gives_the_orms_rows_under_every_filter(postgresql, played, monkeypatch):
    compiled.COMPILED.clear()
    seen_rows = False
    for _ in range(2):  # compiled, then from the cache
        for query in QUERIES:
            filters = StatsFilter(QueryDict(query))
            for service in SERVICES:
                ours, orms = service(filters), through_the_orm(monkeypatch, service, filters)
                assert ours == orms, (query, service.__name__)
                assert repr(ours) == repr(orms)  # the same types: 3.0 is not 3
                seen_rows = seen_rows or bool(ours)
    assert seen_rows
    assert len(compiled.COMPILED) > len(SERVICES)


@pytest.mark.django_db
def test_a_query_of_one_game_and_month_does_not_answer_for_another(postgresql, played):
    vents = strategies.strategy_table(StatsFilter(QueryDict("game=deep-vents")))
    dive = strategies.strategy_table(StatsFilter(QueryDict("game=deep-dive")))
    assert sum(r.games for r in vents) == 8 * 3 + 6 * 4
    assert sum(r.games for r in dive) == 4 * 3
    assert strategies.strategy_table(StatsFilter(QueryDict("game=deep-vents&since=2099-01"))) == []
