"""The per-hex and per-strategy pages: figures drawn from the cubes, filters, greying."""

import re

import pytest
from django.urls import reverse, reverse_lazy
from django.utils.html import strip_tags

from tests.stats_support import verified_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def deep_vents_games(django_capture_on_commit_callbacks):
    return verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 6, seed="pages")


def test_hex_page_shows_a_scatter_and_a_row_per_hex(client, deep_vents_games):
    page = client.get(reverse("stats:hexes"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="hex-scatter"' in html
    assert "plotly/plotly-cartesian.min.js" in html
    assert "cdn" not in html.lower()
    assert len(page.context["rows"]) >= 5


def test_rows_under_the_minimum_sample_are_greyed_and_the_threshold_is_shown(
    client, deep_vents_games
):
    page = client.get(reverse("stats:hexes"), {"min_sample": 5})
    rows = page.context["rows"]
    assert {r.greyed for r in rows} == {r.sample < 5 for r in rows}
    assert "fewer than 5 games are greyed" in page.content.decode()
    # Greyed rows sort after the rest, whatever the sort key.
    flags = [r.greyed for r in rows]
    assert flags == sorted(flags)


def test_the_hex_table_sorts_by_the_chosen_column(client, deep_vents_games):
    rows = client.get(reverse("stats:hexes"), {"sort": "taken", "min_sample": 1}).context["rows"]
    taken = [r.taken for r in rows]
    assert taken == sorted(taken, reverse=True)


def test_filters_narrow_the_hex_statistics(client, deep_vents_games):
    everything = client.get(reverse("stats:hexes")).context["rows"]
    none = client.get(reverse("stats:hexes"), {"players": 2}).context["rows"]
    human = client.get(reverse("stats:hexes"), {"source": "human"}).context["rows"]
    assert everything and not none and not human


def test_hex_detail_page_has_its_distributions(client, deep_vents_games):
    row = client.get(reverse("stats:hexes")).context["rows"][0]
    page = client.get(reverse("stats:hex", args=[row.hex]))
    html = page.content.decode()
    for div in ("hex-win-rates", "hex-positions", "hex-use"):
        assert f'id="{div}"' in html


def test_an_unknown_hex_is_not_found(client):
    assert client.get(reverse("stats:hex", args=["kraken"])).status_code == 404


def test_deep_vents_strategy_page_has_every_figure_and_a_fair_bid(client, deep_vents_games):
    page = client.get(reverse("stats:strategies"), {"game": "deep-vents"})
    html = page.content.decode()
    for div in ("strategy-win-rates", "head-to-head", "score-boxes", "position-advantage", "bids"):
        assert f'id="{div}"' in html
    assert page.context["fair_bids"]


@pytest.mark.parametrize("game_id", ["deep-dive", "deep-sea-adventure"])
def test_push_your_luck_strategy_pages_show_rounds_drowning_and_turning_back(
    client, django_capture_on_commit_callbacks, game_id
):
    verified_games(django_capture_on_commit_callbacks, game_id, 3, 4, seed="push")
    html = client.get(reverse("stats:strategies"), {"game": game_id}).content.decode()
    for div in ("rounds", "drowning", "moments"):
        assert f'id="{div}"' in html


def test_statistics_index_counts_seats_per_game(client, deep_vents_games):
    page = client.get(reverse("stats:index"))
    assert ("deep-vents", "Deep Vents", 18) in page.context["games"]


def test_a_bad_filter_value_is_reported_and_ignored(client, deep_vents_games):
    page = client.get(reverse("stats:hexes"), {"players": "many", "since": "soon"})
    assert page.status_code == 200
    assert page.context["filters"].errors
    assert page.context["rows"]


@pytest.mark.parametrize(
    "path", [reverse_lazy("stats:hexes"), f"{reverse_lazy('stats:strategies')}?game=deep-vents"]
)
def test_every_column_is_defined_on_hover_and_in_the_legend(client, deep_vents_games, path):
    html = client.get(path).content.decode()
    table = html[html.index("<table") : html.index("</table>")]
    legend = html[html.index('class="column-legend"') :]
    headings = re.findall(r'<th scope="col" title="([^"]+)"[^>]*>(.*?)</th>', table)
    terms = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", legend)
    assert len(headings) > 3
    assert [(strip_tags(label), f"{title}.") for title, label in headings] == terms
