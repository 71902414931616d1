"""The per-strategy page's queries go to PostgreSQL as one statement (stats.services.compiled
.together, issue 25): each query's rows come back as the query alone gives them, values,
types and order alike, under every filter; and the page makes one query where it made five.
On SQLite each query is asked alone, as before."""

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext

from stats.adapters import adapter_for
from stats.filters import StatsFilter
from stats.services import compiled, strategies
from tests.stats.test_stats_queries_are_compiled_once_per_shape import QUERIES, every_shape


def page_queries(filters: StatsFilter) -> list[compiled.Query]:
    return [*strategies.PAGE_QUERIES, *adapter_for(filters.game_id).strategy_queries()]


def alone_and_together(filters: StatsFilter) -> tuple[list, list]:
    queries = page_queries(filters)
    alone = [compiled.rows(filters, *query) for query in queries]
    compiled.together(filters, queries)
    fetched = getattr(filters, compiled.FETCHED)
    together = [compiled.rows(filters, *query) for query in queries]
    assert not fetched  # each given once, from what was fetched
    return alone, together


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    from tests.stats_support import verified_games

    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 8, seed="together-3")
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 6, seed="together-4")
    verified_games(django_capture_on_commit_callbacks, "deep-dive", 3, 4, seed="together-dd")
    verified_games(
        django_capture_on_commit_callbacks, "deep-vents", 3, 8, "together-human", None, "human"
    )


@pytest.mark.django_db
def test_each_query_fetched_together_gives_the_rows_it_gives_alone(postgresql, played):
    seen_rows = 0
    for query in [*QUERIES, *every_shape()]:
        alone, together = alone_and_together(StatsFilter(QueryDict(query)))
        assert together == alone, query
        assert repr(together) == repr(alone), query  # the same types: 3.0 is not 3
        seen_rows += sum(map(len, alone))
    assert seen_rows > 1000


@pytest.mark.django_db
def test_the_strategy_page_makes_one_query(postgresql, played, client):
    for game in ("deep-vents", "deep-dive"):
        url = f"/stats/strategies/?game={game}&since=2020-01&players=3"
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        sums = [q for q in queries.captured_queries if "stats_" in q["sql"]]
        assert len(sums) == 1, [q["sql"][:80] for q in sums]


@pytest.mark.django_db
def test_on_sqlite_each_query_is_asked_alone(played):
    if connection.vendor == "postgresql":
        pytest.skip("SQLite's path")
    filters = StatsFilter(QueryDict("game=deep-vents"))
    compiled.together(filters, page_queries(filters))
    assert not hasattr(filters, compiled.FETCHED)
    assert strategies.strategy_table(filters)
