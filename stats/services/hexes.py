"""Per-hex statistics for Deep Vents, read from HexCube (never from the games)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from django.db import connections, router
from django.db.models import QuerySet, Sum

from common.compiled import Statement
from stats.adapters import adapter_for, hex_games
from stats.filters import StatsFilter
from stats.models import (
    HEX_COUNTERS,
    PAR_SCALE,
    HexCube,
    PlayerHexTally,
    PlayerHexTallyDelta,
)
from stats.services import compiled
from stats.services.cells import Cell, cell, estimate_cell, sort_value
from stats.services.intervals import Estimate, difference, shrunk_relative_rate, wilson

# hexes_taken_by's statement: the tally and the takes not folded into it yet, in one
# snapshot (as the cubes' live views); also read with the player page's other queries in
# one round trip (hex_tally_reading, issue 25).
HEX_TALLY_SQL = (
    f'SELECT taken, NULL, NULL FROM "{PlayerHexTally._meta.db_table}" WHERE player_id = %s '
    f'UNION ALL SELECT NULL, hex, taken FROM "{PlayerHexTallyDelta._meta.db_table}" '
    "WHERE player = %s"
)
HEX_TALLY = "player hex tally"


def hex_tally_reading(player_id: int) -> Statement:
    """hexes_taken_by's statement, to be read with others (common.compiled.read)."""
    return Statement(
        HEX_TALLY,
        PlayerHexTally,
        HEX_TALLY_SQL,
        ("player", "player"),
        ("tallied", "hex", "times"),
        {"player": player_id},
        hex_tally_rows,
    )


def hex_tally_rows(player: int) -> list[tuple]:
    with connections[router.db_for_read(PlayerHexTally)].cursor() as cursor:
        cursor.execute(HEX_TALLY_SQL, [player, player])
        return cursor.fetchall()


def hexes_taken(rows: list[tuple]) -> Counter[str]:
    """hexes_taken_by's counts from its statement's rows (HEX_TALLY_SQL)."""
    taken: Counter[str] = Counter()
    for tallied, hex_id, times in rows:
        if tallied is not None:  # the row: JSON, decoded by the driver or not
            taken.update(json.loads(tallied) if isinstance(tallied, str) else tallied)
        else:
            taken[hex_id] += round(times)
    return +taken  # without the hex types taken 0 times


def hexes_taken_by(player_id: int) -> Counter[str]:
    """How often the player took each hex type in counted games."""
    return hexes_taken(hex_tally_rows(player_id))


def hex_names(game_id: str | None = None) -> dict[str, str]:
    """Every hex type of the game (by default the first with hexes): its id -> its name."""
    return adapter_for(game_id or hex_games()[0]).hex_names()


def ratio(a: float, b: float) -> float | None:
    return a / b if b else None


@dataclass
class HexStats:
    hex: str
    totals: dict[str, float]
    min_sample: int
    name: str

    def __getattr__(self, name: str) -> float:
        if name in HEX_COUNTERS:
            return self.totals[name]
        raise AttributeError(name)

    @property
    def sample(self) -> float:
        """Games in which the hex was owned or passed over: what its win rates rest on."""
        return self.totals["owned"] + self.totals["passed"]

    @property
    def greyed(self) -> bool:
        return self.sample < self.min_sample

    @cached_property
    def take_rate(self) -> Estimate:
        return wilson(self.taken, self.offered)

    @property
    def avg_position(self) -> float | None:
        return ratio(self.position, self.taken)

    @property
    def avg_paid(self) -> float | None:
        return ratio(self.paid, self.taken)

    @property
    def avg_found(self) -> float | None:
        return ratio(self.found, self.taken)

    def _rate(self, prefix: str) -> Estimate:
        par = self.totals[f"{prefix}_expected"] / PAR_SCALE  # summed in whole numbers
        return shrunk_relative_rate(self.totals[f"{prefix}_wins"], par, self.totals[prefix])

    @cached_property
    def owned_rate(self) -> Estimate:
        """Win rate when owned, relative to par (1.0 = 1/n at every table size), shrunk
        towards par (intervals.shrunk_relative_rate)."""
        return self._rate("owned")

    @cached_property
    def passed_rate(self) -> Estimate:
        return self._rate("passed")

    @cached_property
    def improvement(self) -> Estimate:
        """Owned minus passed over: what drafting the hex is worth."""
        return difference(self.owned_rate, self.passed_rate)

    @cached_property
    def early_rate(self) -> Estimate:
        return self._rate("early")

    @cached_property
    def late_rate(self) -> Estimate:
        return self._rate("late")

    @property
    def activations(self) -> float:
        return self.grows + self.triggers

    @cached_property
    def trigger_share(self) -> Estimate:
        return wilson(self.triggers, self.activations)

    @property
    def archaea_per_activation(self) -> float | None:
        return ratio(self.grow_archaea + self.trigger_archaea, self.activations)

    @cached_property
    def survival(self) -> Estimate:
        return wilson(self.survived, self.taken)

    def cells(self) -> list[Cell]:
        """The hex table's cells after the name, in the order of its columns."""
        return [
            cell(self.offered, 0),
            cell(self.taken, 0),
            estimate_cell(self.take_rate, 2),
            cell(self.avg_position, 2),
            cell(self.avg_paid, 2),
            cell(self.avg_found, 2),
            estimate_cell(self.owned_rate, 2),
            estimate_cell(self.passed_rate, 2),
            estimate_cell(self.improvement, 2),
            estimate_cell(self.early_rate, 2),
            estimate_cell(self.late_rate, 2),
            estimate_cell(self.trigger_share, 2),
            cell(self.archaea_per_activation, 2),
            cell(self.attacks, 0),
            cell(self.damage, 0),
            cell(self.decimated, 0),
            estimate_cell(self.survival, 2),
            cell(self.sample, 0),
        ]


DEFAULT_SORT = "improvement"
SORTS = {
    "name": lambda h: h.name,
    "offered": lambda h: h.offered,
    "taken": lambda h: h.taken,
    "take_rate": lambda h: h.take_rate.value,
    "position": lambda h: h.avg_position,
    "paid": lambda h: h.avg_paid,
    "found": lambda h: h.avg_found,
    "owned": lambda h: h.owned_rate.value,
    "passed": lambda h: h.passed_rate.value,
    "improvement": lambda h: h.improvement.value,
    "early": lambda h: h.early_rate.value,
    "late": lambda h: h.late_rate.value,
    "trigger_share": lambda h: h.trigger_share.value,
    "per_activation": lambda h: h.archaea_per_activation,
    "attacks": lambda h: h.attacks,
    "damage": lambda h: h.damage,
    "decimated": lambda h: h.decimated,
    "survival": lambda h: h.survival.value,
    "sample": lambda h: h.sample,
}


def summed_by_hex(rows: QuerySet) -> QuerySet:
    """Every hex counter summed by hex: compiled once per shape of filters (resolving forty
    sums took longer than running the query on the rollup)."""
    return rows.values("hex").order_by("hex").annotate(**{name: Sum(name) for name in HEX_COUNTERS})


def hex_table(filters: StatsFilter, sort: str = DEFAULT_SORT) -> list[HexStats]:
    """One row per hex type under the filters; sort by a SORTS key ('-' prefix: ascending).

    Rows with too small a sample sort after the others whatever the key, and within each
    group rows without a value for the key come last. Ties keep the default order, and
    numbers compare as the page gives them to the browser (Cell.sort), so a sorted address
    shows the order the browser's sorting gave (static/site/sortable.js).
    """
    rows = compiled.rows(filters, HexCube, "hex_table", summed_by_hex)
    names = hex_names(filters.game_id)
    stats = []
    for row in rows:
        hex_id = row.pop("hex")
        totals = {k: v or 0.0 for k, v in row.items()}
        stats.append(HexStats(hex_id, totals, filters.threshold, names.get(hex_id, hex_id)))
    ordered = sorted_by(stats, DEFAULT_SORT, descending=True)
    ascending = sort.startswith("-")
    if sort.lstrip("-") in SORTS and sort != DEFAULT_SORT:
        ordered = sorted_by(ordered, sort.lstrip("-"), descending=not ascending)
    # Stable: each group keeps its order.
    ordered.sort(key=lambda s: s.greyed)
    return ordered


def sorted_by(stats: list[HexStats], sort: str, descending: bool) -> list[HexStats]:
    """By a SORTS key, ties in their order, rows without a value last."""
    key = SORTS[sort]
    present = [s for s in stats if key(s) is not None]
    missing = [s for s in stats if key(s) is None]

    def compared(s: HexStats) -> str | float:
        value = key(s)
        return value if isinstance(value, str) else float(sort_value(value))

    present.sort(key=compared, reverse=descending)
    return present + missing


def hex_detail(filters: StatsFilter, hex_id: str) -> HexStats | None:
    for stats in hex_table(filters):
        if stats.hex == hex_id:
            return stats
    return None
