"""CSV files that are safe to open in a spreadsheet: the leaderboard, standings and the
statistics tables.

A cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is read by Excel,
LibreOffice and Google Sheets as a formula, so a player named `=HYPERLINK(...)` would run
in an organiser's spreadsheet (CSV injection). As OWASP recommends, such a cell gets a
leading single quote, which spreadsheets show as text. Numbers, and text that is a plain
number (`-12.5`), are left as they are: a number cannot be a formula.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def safe_cell(value: Any) -> Any:
    """The value to write into a CSV cell, as a spreadsheet will take it literally."""
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class SafeWriter:
    """csv.writer whose every cell goes through safe_cell."""

    def __init__(self, file: Any, **options: Any) -> None:
        self.writer = csv.writer(file, **options)

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow([safe_cell(value) for value in row])


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    """A CSV attachment of these rows under this header."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = SafeWriter(response)
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
    return response


def estimate_columns(name: str) -> list[str]:
    return [name, f"{name}_low", f"{name}_high"]


def estimate_cells(estimate) -> list[float | None]:
    """An Estimate as three numbers: value and its 95% interval."""
    return [estimate.value, estimate.low, estimate.high]
