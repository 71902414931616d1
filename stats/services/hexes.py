"""Per-hex statistics for Deep Vents, read from HexCube (never from the games)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import NamedTuple

from django.db.models import Model, QuerySet, Sum

from engines.deep_vents.edition import editions
from stats.filters import StatsFilter
from stats.models import HEX_COUNTERS, HexCube
from stats.services.intervals import Estimate, difference, relative_rate


@cache
def hex_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for edition in editions().values():
        names.update({hex_id: kind.name for hex_id, kind in edition.hexes.items()})
    return names


def ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def fixed(value: float | None, digits: int) -> str:
    """A number with `digits` decimals, blank when there is none (as floatformat does):
    formatted here, once per cell, because the template filter costs far more per call."""
    return "" if value is None else f"{value:.{digits}f}"


def bracketed(estimate: Estimate, digits: int) -> str:
    """'value [low, high]'; blank when there is no estimate."""
    if estimate.value is None:
        return ""
    return (
        f"{fixed(estimate.value, digits)} "
        f"[{fixed(estimate.low, digits)}, {fixed(estimate.high, digits)}]"
    )


class Cell(NamedTuple):
    """A table cell: its text, and the value a browser sorts the column by (data-sort, in
    static/site/sortable.js): the unrounded number, blank when there is none."""

    text: str
    sort: str


def cell(value: float | None, digits: int) -> Cell:
    return Cell(fixed(value, digits), sort_value(value))


def estimate_cell(estimate: Estimate, digits: int) -> Cell:
    return Cell(bracketed(estimate, digits), sort_value(estimate.value))


def sort_value(value: float | None) -> str:
    return "" if value is None else f"{value:.12g}"


@dataclass
class HexStats:
    hex: str
    totals: dict[str, float]
    min_sample: int

    @property
    def name(self) -> str:
        return hex_names().get(self.hex, self.hex)

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

    @property
    def take_rate(self) -> float | None:
        return ratio(self.taken, self.offered)

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
        return relative_rate(
            self.totals[f"{prefix}_wins"], self.totals[f"{prefix}_expected"], self.totals[prefix]
        )

    @cached_property
    def owned_rate(self) -> Estimate:
        """Win rate when owned, relative to par (1.0 = 1/n at every table size)."""
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

    @property
    def trigger_share(self) -> float | None:
        return ratio(self.triggers, self.activations)

    @property
    def archaea_per_activation(self) -> float | None:
        return ratio(self.grow_archaea + self.trigger_archaea, self.activations)

    @property
    def survival(self) -> float | None:
        return ratio(self.survived, self.taken)

    def cells(self) -> list[Cell]:
        """The hex table's cells after the name, in the order of its columns."""
        return [
            cell(self.offered, 0),
            cell(self.taken, 0),
            cell(self.take_rate, 2),
            cell(self.avg_position, 2),
            cell(self.avg_paid, 2),
            cell(self.avg_found, 2),
            estimate_cell(self.owned_rate, 2),
            estimate_cell(self.passed_rate, 2),
            estimate_cell(self.improvement, 2),
            cell(self.early_rate.value, 2),
            cell(self.late_rate.value, 2),
            cell(self.trigger_share, 2),
            cell(self.archaea_per_activation, 2),
            cell(self.attacks, 0),
            cell(self.damage, 0),
            cell(self.decimated, 0),
            cell(self.survival, 2),
            cell(self.sample, 0),
        ]


DEFAULT_SORT = "improvement"
SORTS = {
    "name": lambda h: h.name,
    "offered": lambda h: h.offered,
    "taken": lambda h: h.taken,
    "take_rate": lambda h: h.take_rate,
    "position": lambda h: h.avg_position,
    "paid": lambda h: h.avg_paid,
    "found": lambda h: h.avg_found,
    "owned": lambda h: h.owned_rate.value,
    "passed": lambda h: h.passed_rate.value,
    "improvement": lambda h: h.improvement.value,
    "early": lambda h: h.early_rate.value,
    "late": lambda h: h.late_rate.value,
    "trigger_share": lambda h: h.trigger_share,
    "per_activation": lambda h: h.archaea_per_activation,
    "attacks": lambda h: h.attacks,
    "damage": lambda h: h.damage,
    "decimated": lambda h: h.decimated,
    "survival": lambda h: h.survival,
    "sample": lambda h: h.sample,
}


@cache
def summed_by_hex(view: type[Model]) -> QuerySet:
    """Every hex counter of the view summed by hex, never evaluated itself: built once per
    process, since resolving forty sums took longer than running the query on the rollup.
    Filters are added to a copy (they go to WHERE: none is on a sum)."""
    return (
        view.objects.values("hex")
        .order_by("hex")
        .annotate(**{name: Sum(name) for name in HEX_COUNTERS})
    )


def hex_table(filters: StatsFilter, sort: str = DEFAULT_SORT) -> list[HexStats]:
    """One row per hex type under the filters; sort by a SORTS key ('-' prefix: ascending).

    Rows with too small a sample sort after the others whatever the key, and within each
    group rows without a value for the key come last. Ties keep the default order, and
    numbers compare as the page gives them to the browser (Cell.sort), so a sorted address
    shows the order the browser's sorting gave (static/site/sortable.js).
    """
    rows = filters.apply(summed_by_hex(filters.view(HexCube)))
    stats = [
        HexStats(row.pop("hex"), {k: v or 0.0 for k, v in row.items()}, filters.threshold)
        for row in rows
    ]
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
