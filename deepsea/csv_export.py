"""CSV files that are safe to open in a spreadsheet.

A cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is read by Excel,
LibreOffice and Google Sheets as a formula, so a player named `=HYPERLINK(...)` would run
in an organiser's spreadsheet (CSV injection). As OWASP recommends, such a cell gets a
leading single quote, which spreadsheets show as text. Plain numbers (`-12.5`) are left as
they are: a number cannot be a formula.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def safe_cell(value: Any) -> Any:
    """The value to write into a CSV cell: text that could start a formula is quoted."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


class SafeWriter:
    """csv.writer whose every cell goes through safe_cell."""

    def __init__(self, file: Any, **options: Any) -> None:
        self.writer = csv.writer(file, **options)

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow([safe_cell(value) for value in row])
