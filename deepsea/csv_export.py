"""CSV downloads of the statistics tables, safe to open in a spreadsheet.

A cell that starts with = + - @, a tab or a carriage return would be read by Excel, LibreOffice
or Google Sheets as a formula (CSV injection: a player named "=HYPERLINK(...)"); such cells get
a leading apostrophe, which spreadsheets show as text. Numbers are written as numbers (a
negative number is not text, so it keeps its minus sign).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """The value as a spreadsheet will take it literally."""
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    """A CSV attachment of these rows under this header."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return response


def estimate_columns(name: str) -> list[str]:
    return [name, f"{name}_low", f"{name}_high"]


def estimate_cells(estimate) -> list[float | None]:
    """An Estimate as three numbers: value and its 95% interval."""
    return [estimate.value, estimate.low, estimate.high]
