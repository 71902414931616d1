"""Per-strategy statistics for every game, read from the cubes."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

import numpy
from django.db import connection
from django.db.models import Model, StringAgg, Sum, Value
from django.db.models.functions import NullIf

from engines.registry import GAMES, get_game
from stats.filters import StatsFilter
from stats.models import (
    NO_BID,
    NO_TURN_ORDER,
    PAR_SCALE,
    BidCube,
    PairCube,
    RoundCube,
    ScoreCube,
    ScoreCubeDelta,
    ScoreCubePacked,
    SeatCube,
    StrategyCube,
)
from stats.services import compiled
from stats.services.cells import Cell, cell, estimate_cell
from stats.services.compiled import Query
from stats.services.fair_bid import BidPoint
from stats.services.intervals import (
    Estimate,
    mean,
    relative_rate,
    shrunk_relative_rate,
    wilson,
)

UNLABELLED = "People (no bot named)"


@cache
def bot_titles() -> dict[str, str]:
    """Every bot's title by its id, from the engines (a bot's title is the same in every
    game: "surface-after-3" is "Surface-after-3 bot")."""
    return {name: bot.title for game in GAMES for name, bot in get_game(game).strategies.items()}


def label(strategy: str) -> str:
    """A seat's strategy as the pages name it: the bot's title; seats no bot played are
    people's."""
    if not strategy:
        return UNLABELLED
    return bot_titles().get(strategy, strategy)


@dataclass
class StrategyStats:
    strategy: str
    games: float
    wins: float
    expected: float
    score_total: float
    score_sq: float
    rank_total: float
    min_sample: int

    @property
    def label(self) -> str:
        return label(self.strategy)

    @property
    def greyed(self) -> bool:
        return self.games < self.min_sample

    @property
    def win_rate(self) -> Estimate:
        return wilson(self.wins, self.games)

    @property
    def relative(self) -> Estimate:
        return shrunk_relative_rate(self.wins, self.expected, self.games)

    @property
    def score(self) -> Estimate:
        return mean(self.score_total, self.score_sq, self.games)

    @property
    def avg_rank(self) -> float | None:
        return self.rank_total / self.games if self.games else None

    def cells(self) -> list[Cell]:
        """The strategy table's cells after the label, in the order of its columns."""
        return [
            cell(self.games, 0),
            estimate_cell(self.win_rate, 3),
            estimate_cell(self.relative, 2),
            estimate_cell(self.score, 1),
            cell(self.avg_rank, 2),
        ]


STRATEGY_TABLE: Query = (
    StrategyCube,
    "strategy_table",
    lambda rows: (
        rows.values("strategy")
        .order_by("strategy")
        .annotate(
            games=Sum("n"),
            w=Sum("wins"),
            e=Sum("expected"),
            s=Sum("score"),
            s2=Sum("score_sq"),
            r=Sum("rank"),
        )
    ),
)


def strategy_table(filters: StatsFilter) -> list[StrategyStats]:
    rows = compiled.rows(filters, *STRATEGY_TABLE)
    stats = [
        StrategyStats(
            r["strategy"],
            r["games"],
            r["w"],
            r["e"] / PAR_SCALE,  # summed in whole numbers (stats.models.PAR_SCALE)
            r["s"],
            r["s2"],
            r["r"],
            filters.threshold,
        )
        for r in rows
    ]
    stats.sort(key=lambda s: (s.greyed, -(s.relative.value or 0)))
    return stats


HEAD_TO_HEAD: Query = (
    PairCube,
    "head_to_head",
    lambda rows: (
        rows.values("strategy", "opponent")
        .order_by()
        .annotate(meetings=Sum("n"), ahead=Sum("ahead"), behind=Sum("behind"))
    ),
)


def head_to_head(filters: StatsFilter) -> tuple[list[str], list[list[float | None]], list[list]]:
    """Strategies, and for each pair the share of meetings the row strategy finished above
    the column one (ties count half), with the number of meetings."""
    rows = compiled.rows(filters, *HEAD_TO_HEAD)
    cells = {(r["strategy"], r["opponent"]): r for r in rows}
    names = sorted({s for pair in cells for s in pair})
    shares: list[list[float | None]] = []
    meetings: list[list] = []
    for a in names:
        share_row, meet_row = [], []
        for b in names:
            cell = cells.get((a, b))
            if cell and cell["meetings"]:
                ties = cell["meetings"] - cell["ahead"] - cell["behind"]
                share_row.append((cell["ahead"] + ties / 2) / cell["meetings"])
                meet_row.append(int(cell["meetings"]))
            else:
                share_row.append(None)
                meet_row.append(0)
        shares.append(share_row)
        meetings.append(meet_row)
    return [label(n) for n in names], shares, meetings


@dataclass
class Distribution:
    strategy: str
    q1: float
    median: float
    q3: float
    low: float
    high: float
    mean: float
    n: int


def quantile(bins: list[tuple[int, float]], total: float, q: float) -> float:
    """The q-quantile of integer-binned scores (bins sorted by value)."""
    target = q * total
    seen = 0.0
    for value, count in bins:
        seen += count
        if seen >= target:
            return float(value)
    return float(bins[-1][0])


def counts_query(cube: type[Model], column: str) -> Query:
    """The query of counts_by_strategy."""
    return (
        cube,
        f"counts_by_strategy:{column}",
        lambda rows: (
            rows.values("strategy", column).order_by("strategy", column).annotate(count=Sum("n"))
        ),
    )


def counts_by_strategy(
    filters: StatsFilter, cube: type[Model], column: str
) -> dict[str, list[tuple[int, float]]]:
    """Each strategy's games summed by one of the cube's columns: (value, count) in the
    value's order, zero counts kept."""
    rows = compiled.rows(filters, *counts_query(cube, column))
    counts: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for r in rows:
        counts[r["strategy"]].append((r[column], r["count"]))
    return counts


# The score bins packed by key (stats.models.PACKED_SCORE_BINS), and the score cube's deltas
# not folded yet, which the packed bins do not hold (the cube's live views do).


PACKED_SCORE_BINS: Query = (
    ScoreCubePacked,
    "packed_score_bins",
    # Each strategy's packed texts in one (a stale row's empty text left out), read as one
    # JSON array: 150 json.loads of a few dozen numbers each cost more than the 5,000 rows
    # they replace.
    lambda rows: (
        rows.values("strategy")
        .order_by()
        .annotate(bins=StringAgg(NullIf("bins", Value("")), Value(",")))
    ),
)
SCORE_BIN_DELTAS: Query = (
    ScoreCubeDelta,
    "score_bin_deltas",
    lambda rows: rows.values("strategy", "score_bin").order_by().annotate(count=Sum("n")),
)


def score_bin_counts(filters: StatsFilter) -> dict[str, list[tuple[int, int]]]:
    """Each strategy's games by score bin, (bin, count) in the bins' order, as
    counts_by_strategy sums the score cube's (a bin may be given with a zero count): on
    PostgreSQL from the bins packed by key, some forty times fewer rows, and the deltas not
    folded yet; on SQLite (no packed bins) from the cube's bins."""
    if connection.vendor != "postgresql":
        return counts_by_strategy(filters, ScoreCube, "score_bin")
    bins: dict[str, list[int]] = defaultdict(list)
    counts: dict[str, list[int]] = defaultdict(list)
    for r in compiled.rows(filters, *PACKED_SCORE_BINS):
        packed = json.loads(f"[{r['bins'] or ''}]")  # None: every row stale (never committed)
        bins[r["strategy"]] += packed[0::2]
        counts[r["strategy"]] += packed[1::2]
    for r in compiled.rows(filters, *SCORE_BIN_DELTAS):
        bins[r["strategy"]].append(r["score_bin"])
        counts[r["strategy"]].append(r["count"])
    return {
        strategy: summed_by_bin(bins[strategy], counts[strategy])
        for strategy in bins
        if bins[strategy]
    }


def summed_by_bin(bins: list[int], counts: list[int]) -> list[tuple[int, int]]:
    """The counts summed by bin, (bin, count) in the bins' order, bins summing to zero left
    out: in whole numbers (numpy's int64, far above any count of games)."""
    values = numpy.asarray(bins, dtype=numpy.int64)
    low = int(values.min())
    summed = numpy.zeros(int(values.max()) - low + 1, dtype=numpy.int64)
    numpy.add.at(summed, values - low, numpy.asarray(counts, dtype=numpy.int64))
    seen = numpy.flatnonzero(summed)
    return list(zip((seen + low).tolist(), summed[seen].tolist(), strict=True))


def score_distributions(filters: StatsFilter) -> list[Distribution]:
    return distributions_of(score_bin_counts(filters))


def distributions_of(counts: dict[str, list[tuple[int, float]]]) -> list[Distribution]:
    """Each strategy's score box from its games by score bin (as score_bin_counts gives them)."""
    bins = {
        strategy: [(value, count) for value, count in values if count]
        for strategy, values in counts.items()
    }
    bins = {strategy: values for strategy, values in bins.items() if values}
    result = []
    for strategy, values in sorted(bins.items()):
        total = sum(c for _, c in values)
        result.append(
            Distribution(
                label(strategy),
                q1=quantile(values, total, 0.25),
                median=quantile(values, total, 0.5),
                q3=quantile(values, total, 0.75),
                low=float(values[0][0]),
                high=float(values[-1][0]),
                mean=sum(v * c for v, c in values) / total,
                n=int(total),
            )
        )
    return result


@dataclass
class PositionStats:
    position: int
    games: float
    relative: Estimate
    win_rate: Estimate
    avg_score: float | None


POSITIONS = ("seat", "turn_order")
POSITION_ADVANTAGES: Query = (
    SeatCube,
    "position_advantages",
    lambda rows: (
        rows.values(*POSITIONS)
        .order_by()
        .annotate(games=Sum("n"), w=Sum("wins"), e=Sum("expected"), s=Sum("score"))
    ),
)


def position_advantages(filters: StatsFilter) -> dict[str, list[PositionStats]]:
    """Win rate (relative to par) by seat ('seat', 0-based) and by turn order ('turn_order'),
    from one pass over the seat cube: its rows summed by both keys at once, a few dozen
    groups, then by each key here. Par is summed in whole numbers (stats.models.PAR_SCALE),
    so the figures are the same whichever of the seat cube's tables the filters read."""
    rows = compiled.rows(filters, *POSITION_ADVANTAGES)
    totals: dict[str, dict[int, list[float]]] = {
        by: defaultdict(lambda: [0, 0.0, 0, 0.0]) for by in POSITIONS
    }
    for r in rows:
        for by in POSITIONS:
            if by == "turn_order" and r[by] == NO_TURN_ORDER:
                continue
            sums = totals[by][r[by]]
            for i, name in enumerate(("games", "w", "e", "s")):
                sums[i] += r[name]
    return {
        by: [
            PositionStats(
                position,
                games,
                shrunk_relative_rate(w, e / PAR_SCALE, games),
                wilson(w, games),
                score / games if games else None,
            )
            for position, (games, w, e, score) in sorted(by_position.items())
        ]
        for by, by_position in totals.items()
    }


@dataclass
class BidStats:
    player_count: int
    bid: int
    games: float
    wins: float
    relative: Estimate

    @property
    def point(self) -> BidPoint:
        return BidPoint(self.player_count, self.bid, self.games, self.wins)


FIRST_PLAYER_BY_BID: Query = (
    BidCube,
    "first_player_by_bid",
    lambda rows: (
        rows.filter(turn_order=1)
        .exclude(winning_bid=NO_BID)
        .values("player_count", "winning_bid")
        .order_by("player_count", "winning_bid")
        .annotate(games=Sum("n"), w=Sum("wins"), e=Sum("expected"))
    ),
)


def first_player_by_bid(filters: StatsFilter) -> list[BidStats]:
    """The first player's win rate (relative to par) by the bid that made them first (DV-3)."""
    rows = compiled.rows(filters, *FIRST_PLAYER_BY_BID)
    return [
        BidStats(
            r["player_count"],
            r["winning_bid"],
            r["games"],
            r["w"],
            relative_rate(r["w"], r["e"] / PAR_SCALE, r["games"]),  # par: PAR_SCALE
        )
        for r in rows
    ]


@dataclass
class RoundStats:
    strategy: str
    round: int
    seats: float
    points: float | None
    drowned: Estimate


ROUNDS_BY_STRATEGY: Query = (
    RoundCube,
    "rounds_by_strategy",
    lambda rows: (
        rows.values("strategy", "round")
        .order_by("strategy", "round")
        .annotate(seats=Sum("n"), p=Sum("points"), d=Sum("drowned"))
    ),
)
MOMENTS_BY_STRATEGY = counts_query(RoundCube, "moment")
# The queries of the strategy page that every game's has (stats.views.strategy_list_body;
# a game's own charts add theirs: stats.adapters).
PAGE_QUERIES = (
    STRATEGY_TABLE,
    HEAD_TO_HEAD,
    PACKED_SCORE_BINS,
    SCORE_BIN_DELTAS,
    POSITION_ADVANTAGES,
)


def rounds_by_strategy(filters: StatsFilter) -> list[RoundStats]:
    """Points and drowning (DSA) or shark losses (Deep Dive) per dive or round."""
    rows = compiled.rows(filters, *ROUNDS_BY_STRATEGY)
    return [
        RoundStats(
            label(r["strategy"]),
            r["round"],
            r["seats"],
            r["p"] / r["seats"] if r["seats"] else None,
            wilson(r["d"], r["seats"]),
        )
        for r in rows
    ]


def moments_by_strategy(filters: StatsFilter) -> dict[str, list[tuple[int, float]]]:
    """When each strategy turns back (DSA: its turn in the dive) or surfaces (Deep Dive: the
    pass of the round), as shares of its dives/rounds; 0 = never chose to."""
    counts: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for strategy, values in counts_by_strategy(filters, RoundCube, "moment").items():
        counts[label(strategy)].extend(values)
    shares = {}
    for strategy, values in counts.items():
        total = sum(c for _, c in values)
        shares[strategy] = [(m, c / total) for m, c in values] if total else []
    return shares
