"""The per-strategy page's score chart reads the score cube's bins packed by key (a row per
key of the cube, its rollup or a table by month, its bins and counts in two arrays:
stats.models.PACKED_SCORE_BINS), some forty times fewer rows than a row per bin (issue 25).
Its boxes are those of the cube's bins under every filter, whether the deltas are folded or
not; the fold keeps each packed table equal to its table's bins, and a rebuild packs the
same. On SQLite the page sums the cube's bins, and nothing is packed."""

import pytest
from django.conf import settings
from django.db.models import Sum
from django.http import QueryDict

from games.models import Game
from games.signals import game_retracted
from stats import figures
from stats.filters import StatsFilter
from stats.models import (
    BY_MONTH_LIVE,
    LIVE,
    PACKED_SCORE_BINS,
    PACKED_SCORE_BINS_OF_VIEW,
    ScoreCube,
    ScoreCubeDelta,
)
from stats.services import strategies
from stats.services.aggregate import fold_deltas, rebuild_all
from stats.services.bands import BANDS

pytestmark = pytest.mark.django_db
on_postgresql = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="bins are packed on PostgreSQL only",
)

DATES = "since=2020-01&until=2035-12"
# Every shape of the page's filters, so every table of the score cube is read.
QUERIES = (
    "",
    "source=human",
    f"band={BANDS[1][1]}",
    "players=3",
    DATES,
    f"{DATES}&source=human",
    f"{DATES}&band={BANDS[1][1]}",
    f"{DATES}&source=simulated&band={BANDS[0][1]}",
    f"{DATES}&strategy=grower",
    f"{DATES}&source=human&players=3",
    f"{DATES}&players=4&ruleset=starting-bid",
)


@pytest.fixture
def played(django_capture_on_commit_callbacks) -> list[Game]:
    from tests.stats_support import verified_games

    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 6, seed="pack")
    games += verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 4, seed="pk4")
    games += verified_games(
        django_capture_on_commit_callbacks, "deep-vents", 3, 5, "pack-h", None, "human"
    )
    return games


def boxes_of_the_cube(filters: StatsFilter) -> list[strategies.Distribution]:
    """The score boxes as the page drew them before the bins were packed: from the cube's
    bins through its live view (the deltas not folded yet in it)."""
    return strategies.distributions_of(
        strategies.counts_by_strategy(filters, ScoreCube, "score_bin")
    )


def packed_as_their_tables_hold_them() -> dict:
    """Each packed table's bins with a count by key (as a rebuild has them: a retraction
    folded leaves its bins counted zero times), each row checked equal to its table's bins,
    zeros and all, and none left stale."""
    packed_tables = {}
    for table, packed in PACKED_SCORE_BINS.items():
        key = [field.name for field in packed._meta.pk_fields]
        bins: dict = {}
        for row in table.objects.order_by("score_bin").values(*key, "score_bin", "n"):
            bins.setdefault(tuple(row[name] for name in key), []).append(
                (row["score_bin"], row["n"])
            )
        rows = packed.objects.values_list(*key, "bins", "stale")
        assert not any(stale for *_, stale in rows), "a packed row left stale"
        numbers = {tuple(row[:-2]): [int(x) for x in row[-2].split(",")] for row in rows}
        assert numbers == {k: [x for pair in kept for x in pair] for k, kept in bins.items()}
        counted = {key: [(b, c) for b, c in kept if c] for key, kept in bins.items()}
        packed_tables[packed.__name__] = {key: kept for key, kept in counted.items() if kept}
    return packed_tables


def test_every_table_the_score_chart_may_read_has_its_bins_packed():
    assert set(PACKED_SCORE_BINS_OF_VIEW) == {LIVE[ScoreCube][0], LIVE[ScoreCube][1]} | set(
        BY_MONTH_LIVE[ScoreCube]
    )
    for view, packed in PACKED_SCORE_BINS_OF_VIEW.items():
        assert {field.name for field in packed._meta.pk_fields} == {
            f.name for f in view._meta.concrete_fields
        } - {"id", "n", "score_bin"}


@pytest.mark.parametrize("query", QUERIES)
def test_the_score_boxes_are_the_cubes_with_deltas_and_folded(played, query):
    game_retracted.send(sender=Game, game=played[-1])  # its deltas not folded yet
    assert ScoreCubeDelta.objects.exists()  # read beside the packed bins
    filters = StatsFilter(QueryDict(f"game=deep-vents&{query}"))
    before = boxes_of_the_cube(filters)
    assert strategies.score_distributions(filters) == before
    fold_deltas()
    assert not ScoreCubeDelta.objects.exists()
    filters = StatsFilter(QueryDict(f"game=deep-vents&{query}"))
    assert strategies.score_distributions(filters) == before
    assert before or "ruleset" in query or "band" in query


@on_postgresql
def test_the_fold_keeps_the_packed_bins_and_a_rebuild_packs_the_same(played):
    fold_deltas()
    folded = packed_as_their_tables_hold_them()
    assert all(folded.values())
    game_retracted.send(sender=Game, game=played[0])
    fold_deltas()
    retracted = packed_as_their_tables_hold_them()
    assert retracted != folded
    rebuild_all()
    assert packed_as_their_tables_hold_them() == retracted


@on_postgresql
def test_the_page_reads_the_packed_bins_and_the_deltas_in_its_one_statement(played, client):
    fold_deltas()
    game_retracted.send(sender=Game, game=played[1])  # a delta not folded: still drawn
    assert ScoreCubeDelta.objects.aggregate(n=Sum("n"))["n"] < 0
    filters = StatsFilter(QueryDict(f"game=deep-vents&{DATES}&source=simulated"))
    expected = boxes_of_the_cube(filters)
    response = client.get(f"/stats/strategies/?game=deep-vents&{DATES}&source=simulated")
    assert response.status_code == 200
    assert expected
    assert figures.score_boxes(expected) in response.text
    filters = StatsFilter(QueryDict(f"game=deep-vents&{DATES}&source=simulated"))
    assert strategies.score_distributions(filters) == expected
