"""Table cells of the statistics pages: a number's text and the value a browser sorts by."""

from __future__ import annotations

from typing import NamedTuple

from stats.services.intervals import Estimate


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
