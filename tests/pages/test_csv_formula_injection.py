"""CSV exports neutralise cells a spreadsheet would run as formulas (OWASP: a leading single
quote before `=`, `+`, `-`, `@`, tab, carriage return), and leave plain numbers alone."""

import csv
import io

import pytest

from common.csv_export import SafeWriter, safe_cell
from tests.ratings_support import verified_game

HOSTILE_NAMES = ['=HYPERLINK("http://evil.example","x")', "@SUM(A1)", "+cmd", "-2+3"]


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTAB", "'\tTAB"),
        ("\rCR", "'\rCR"),
        ("-12.5", "-12.5"),
        ("ann", "ann"),
        ("a=b", "a=b"),
        (1500, 1500),
    ],
)
def test_a_cell_that_could_start_a_formula_gets_a_leading_quote(cell, written):
    assert safe_cell(cell) == written


def test_the_safe_writer_quotes_every_cell_of_a_row():
    out = io.StringIO()

    SafeWriter(out).writerow(["=A1", "fine", -3])

    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["'=A1", "fine", "-3"]


@pytest.mark.django_db
def test_the_leaderboard_csv_quotes_player_names_that_look_like_formulas(client):
    verified_game(HOSTILE_NAMES, seed=300)

    response = client.get("/leaderboards/deep-vents/?format=csv")

    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    names = sorted(row["name"] for row in rows)
    assert names == sorted("'" + name for name in HOSTILE_NAMES)
    assert all(not row["name"].startswith(("=", "+", "-", "@")) for row in rows)
