"""CSV downloads of the statistics tables (per hex, per strategy, standings), safe against
formula injection: a cell a spreadsheet would run as a formula is written as text."""

import csv
import io

import pytest
from demo_support import load_tournament_demo
from django.db.models import Sum

from common.csv_export import safe_cell
from stats.models import HexCube
from tests.stats_support import verified_games
from tournaments import demo
from tournaments.models import Player, Tournament


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("x")', '\'=HYPERLINK("x")'),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("Marina Abyss", "Marina Abyss"),
        (-3.5, -3.5),
        (None, ""),
    ],
)
def test_cells_a_spreadsheet_would_run_as_formulas_become_text(value, written):
    assert safe_cell(value) == written


def read_csv(response) -> list[dict]:
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.fixture
def deep_vents_games(django_capture_on_commit_callbacks):
    return verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 6, seed="csv")


@pytest.mark.django_db
def test_the_per_hex_csv_has_a_row_per_hex_with_the_counts_of_the_cubes(client, deep_vents_games):
    rows = read_csv(client.get("/stats/hexes/", {"format": "csv", "min_sample": 1}))
    taken = dict(
        HexCube.objects.filter(game_type="deep-vents")
        .values_list("hex")
        .order_by()
        .annotate(n=Sum("taken"))
    )
    assert {r["hex"] for r in rows} == {h for h, n in taken.items() if n is not None}
    for row in rows:
        assert float(row["taken"]) == taken[row["hex"]]
        if row["owned_win_rate_over_par"]:
            low, value, high = (
                float(row[k])
                for k in (
                    "owned_win_rate_over_par_low",
                    "owned_win_rate_over_par",
                    "owned_win_rate_over_par_high",
                )
            )
            assert low - 1e-9 <= value <= high + 1e-9


@pytest.mark.django_db
def test_the_strategy_csv_counts_every_seat(client, deep_vents_games):
    rows = read_csv(client.get("/stats/strategies/", {"game": "deep-vents", "format": "csv"}))
    assert sum(float(r["games"]) for r in rows) == 6 * 3
    assert {"win_rate", "win_rate_low", "win_rate_high", "average_rank"} <= set(rows[0])


@pytest.mark.django_db
def test_the_standings_csv_matches_the_page_and_neutralises_a_formula_name(client):
    load_tournament_demo()
    tournament = Tournament.objects.get(slug=demo.DEMO_SLUG)
    player = tournament.registrations.first().player
    Player.objects.filter(pk=player.pk).update(display_name='=HYPERLINK("http://x")')

    rows = read_csv(client.get(tournament.get_absolute_url(), {"format": "csv"}))
    page = client.get(tournament.get_absolute_url())

    standings = page.context["standings"]
    assert [r["handle"] for r in rows] == [s.player.handle for s in standings]
    assert [float(r["points"]) for r in rows] == [round(s.points, 4) for s in standings]
    named = next(r for r in rows if r["handle"] == player.handle)
    assert named["name"] == '\'=HYPERLINK("http://x")'
    assert "draw" not in rows[0]
    assert 'href="?format=csv"' in page.content.decode()
