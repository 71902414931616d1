"""The statistics pages' queries are compiled to SQL once per shape (stats.services.compiled,
through common.compiled): for every filter, alone and together, each query gives the rows the
ORM gives for the same filters, values and their types alike, whichever query of the same
shape came before."""

import contextlib
import itertools
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.http import QueryDict

from common.compiled import COMPILED
from stats.adapters import hex_games
from stats.filters import StatsFilter
from stats.models import StrategyCubeLive
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
            compiled,
            "rows",
            lambda filters, cube, name, query: list(
                query(filters.apply(compiled.view_of(filters, cube).objects.all()))
            ),
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
    COMPILED.clear()
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
    assert len(COMPILED) > len(SERVICES)


@pytest.mark.django_db
def test_a_query_of_one_game_and_month_does_not_answer_for_another(postgresql, played):
    vents = strategies.strategy_table(StatsFilter(QueryDict("game=deep-vents")))
    dive = strategies.strategy_table(StatsFilter(QueryDict("game=deep-dive")))
    assert sum(r.games for r in vents) == 8 * 3 + 6 * 4
    assert sum(r.games for r in dive) == 4 * 3
    assert strategies.strategy_table(StatsFilter(QueryDict("game=deep-vents&since=2099-01"))) == []


def a_key_of(source: str) -> dict[str, str]:
    """A key of the strategy cube (table size, ruleset, band, bot, month) of games of
    `source`, as the filter bar sends it."""
    row = (
        StrategyCubeLive.objects.filter(game_type="deep-vents", source=source)
        .exclude(strategy="")
        .order_by("player_count", "band", "strategy")
        .first()
    )
    return {
        "players": str(row.player_count),
        "ruleset": row.ruleset,
        "band": row.band,
        "strategy": row.strategy,
        "since": f"{row.month:%Y-%m}",
        "until": f"{row.month:%Y-%m}",
    }


def every_shape() -> list[str]:
    """A query string for each shape a page can ask for: every filter on or off, with every
    other, the source unset, one source or all human games; each set to a key that games of
    that source have, so that every shape finds rows."""
    queries = []
    for source, key in ((None, "simulated"), ("simulated", "simulated"), ("human", "human")):
        values = a_key_of(key)
        for chosen in itertools.product((False, True), repeat=len(values)):
            query = {"game": "deep-vents", **({"source": source} if source else {})}
            query.update(
                {
                    name: value
                    for (name, value), on in zip(values.items(), chosen, strict=True)
                    if on
                }
            )
            queries.append(urlencode(query))
    return queries


@pytest.mark.django_db
def test_every_shape_the_pages_ask_for_gives_the_orms_rows(
    postgresql, played, django_capture_on_commit_callbacks, monkeypatch
):
    """Each filter alone and with every other: a value put in another's place finds other
    rows or none. And each statement is the ORM's, sent with the ORM's parameters typed as
    the ORM types them (a table size as psycopg's Int2)."""
    from tests.stats_support import verified_games

    verified_games(
        django_capture_on_commit_callbacks, "deep-vents", 3, 8, "compiled-human", None, "human"
    )
    shapes = every_shape()
    assert len(shapes) == 3 * 2**6
    for query in shapes:
        filters = StatsFilter(QueryDict(query))
        assert filters.is_valid(), (query, filters.errors)
        assert strategies.strategy_table(filters), query
        for service in SERVICES:
            with sent() as our_statements:
                ours = service(filters)
            with sent() as orms_statements:
                orms = through_the_orm(monkeypatch, service, filters)
            assert ours == orms, (query, service.__name__)
            assert repr(ours) == repr(orms)
            assert our_statements == orms_statements, (query, service.__name__)


@contextlib.contextmanager
def sent() -> Iterator[list]:
    """The statements sent to the database meanwhile, each parameter with its type."""
    statements: list = []

    def kept(execute, sql, params, many, context):
        statements.append((sql, [(type(p), p) for p in params]))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(kept):
        yield statements
