"""Sortable tables as the server renders them: each number cell carries its unrounded value in
data-sort (static/site/sortable.js sorts by it in the browser), the column the server sorted
by carries aria-sort, and the per-hex headers link to the server's own sort for a browser
without JavaScript."""

from html.parser import HTMLParser

import pytest
from demo_support import load_tournament_demo
from django.http import QueryDict
from django.urls import reverse

from ratings.models import Rating
from stats.filters import StatsFilter
from stats.services import hexes, strategies
from tests.ratings_support import hours_ago, verified_game
from tests.stats_support import verified_games
from tournaments import demo
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


class Tables(HTMLParser):
    """Every <table> of a page: its header cells and body rows, with their attributes."""

    def __init__(self, html: str):
        super().__init__()
        self.tables: list[dict] = []
        self.cell: dict | None = None
        self.part = ""
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"attrs": attrs, "headers": [], "rows": []})
        elif not self.tables:
            return
        elif tag in ("thead", "tbody"):
            self.part = tag
        elif tag == "tr" and self.part == "tbody":
            self.tables[-1]["rows"].append({"attrs": attrs, "cells": []})
        elif tag in ("th", "td"):
            self.cell = {"attrs": attrs, "text": "", "links": []}
            if self.part == "thead":
                self.tables[-1]["headers"].append(self.cell)
            else:
                self.tables[-1]["rows"][-1]["cells"].append(self.cell)
        elif tag == "a" and self.cell is not None:
            self.cell["links"].append(attrs.get("href", ""))

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data


def table(html: str, css_class: str) -> dict:
    return next(t for t in Tables(html).tables if css_class in t["attrs"].get("class", ""))


def header(found: dict, text: str) -> dict:
    return next(h for h in found["headers"] if h["text"].strip() == text)


def column(found: dict, text: str) -> list[str]:
    index = found["headers"].index(header(found, text))
    return [row["cells"][index]["attrs"].get("data-sort") for row in found["rows"]]


def unrounded(value: float | None) -> str:
    return "" if value is None else f"{value:.12g}"


@pytest.fixture
def deep_vents_games(django_capture_on_commit_callbacks):
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 6, seed="sortable")
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 4, seed="sortable-4")


def hex_rows(sort: str = "improvement", min_sample: int = 1) -> list[hexes.HexStats]:
    params = QueryDict(f"min_sample={min_sample}")
    return hexes.hex_table(StatsFilter(params), sort)


HEX_COLUMNS = {
    "Offered": lambda h: h.offered,
    "Taken": lambda h: h.taken,
    "Take rate": lambda h: h.taken / h.offered if h.offered else None,
    "Avg position": lambda h: h.position / h.taken if h.taken else None,
    "Owned WR": lambda h: h.owned_rate.value,
    "Improve\N{SOFT HYPHEN}ment": lambda h: h.improvement.value,
    "Early (1-3)": lambda h: h.early_rate.value,
    "Survival": lambda h: h.survived / h.taken if h.taken else None,
    "Sample": lambda h: h.owned + h.passed,
}


def test_every_per_hex_number_carries_its_unrounded_value_to_sort_by(client, deep_vents_games):
    html = client.get(reverse("stats:hexes"), {"min_sample": 5}).content.decode()
    found = table(html, "hex-table")
    by_name = {h.name: h for h in hex_rows(min_sample=5)}
    names = column(found, "Hex")
    assert set(names) == set(by_name) and len(names) > 5
    for title, value in HEX_COLUMNS.items():
        expected = [unrounded(value(by_name[name])) for name in names]
        assert column(found, title) == expected, title
    # A blank (no value) sorts last; greyed rows stay after the others whatever the column.
    for name, row in zip(names, found["rows"], strict=True):
        group = row["attrs"].get("data-sort-group")
        assert group == ("1" if by_name[name].greyed else None)


def test_the_per_hex_table_marks_the_servers_sort_and_links_each_header_to_it(
    client, deep_vents_games
):
    default = table(client.get(reverse("stats:hexes")).content.decode(), "hex-table")
    sorted_headers = [h["text"] for h in default["headers"] if "aria-sort" in h["attrs"]]
    assert sorted_headers == ["Improve\N{SOFT HYPHEN}ment"]
    assert header(default, "Improve\N{SOFT HYPHEN}ment")["attrs"]["aria-sort"] == "descending"
    # Without JavaScript a header is a link: highest first, names and positions lowest first,
    # and the sorted column the other way round.
    assert header(default, "Taken")["links"] == ["?sort=taken"]
    assert header(default, "Hex")["links"] == ["?sort=-name"]
    assert header(default, "Avg position")["links"] == ["?sort=-position"]
    assert header(default, "Improve\N{SOFT HYPHEN}ment")["links"] == ["?sort=-improvement"]
    assert header(default, "Taken")["attrs"]["data-sort-key"] == "taken"

    page = client.get(reverse("stats:hexes"), {"sort": "-position", "min_sample": 1})
    by_position = table(page.content.decode(), "hex-table")
    avg_position = header(by_position, "Avg position")
    assert avg_position["attrs"]["aria-sort"] == "ascending"
    assert avg_position["links"] == ["?min_sample=1&sort=position"]
    assert [h for h in by_position["headers"] if "aria-sort" in h["attrs"]] == [avg_position]
    values = [float(v) for v in column(by_position, "Avg position") if v]
    assert values == sorted(values)


def test_on_the_server_hexes_without_a_value_come_last_within_their_group(deep_vents_games):
    rows = hex_rows(sort="late")
    for greyed in (False, True):
        # As the browser compares them: to the 12 digits of data-sort (equal rates of
        # different tables may differ in their last bit).
        group = [
            None if h.late_rate.value is None else float(f"{h.late_rate.value:.12g}")
            for h in rows
            if h.greyed is greyed
        ]
        present = [v for v in group if v is not None]
        assert group == sorted(present, reverse=True) + [None] * (len(group) - len(present))
    assert [h.greyed for h in rows] == sorted(h.greyed for h in rows)


def test_every_strategy_number_carries_its_unrounded_value_to_sort_by(client, deep_vents_games):
    html = client.get(reverse("stats:strategies"), {"game": "deep-vents"}).content.decode()
    found = next(t for t in Tables(html).tables if t["headers"][0]["text"] == "Strategy")
    params = QueryDict("game=deep-vents")
    by_label = {s.label: s for s in strategies.strategy_table(StatsFilter(params))}
    labels = [row["cells"][0]["text"] for row in found["rows"]]
    assert set(labels) == set(by_label)
    columns = {
        "Games": lambda s: s.games,
        "Win rate": lambda s: s.wins / s.games,
        # Shrunk towards par by the README's prior of 10 games at the seats' mean par.
        "Win rate / par": lambda s: (
            (s.wins + 10 * s.expected / s.games) / (s.games + 10) / (s.expected / s.games)
        ),
        "Average score": lambda s: s.score_total / s.games,
        "Average rank": lambda s: s.rank_total / s.games,
    }
    for title, value in columns.items():
        expected = [float(value(by_label[label])) for label in labels]
        assert [float(v) for v in column(found, title)] == pytest.approx(expected, rel=1e-9)
    assert header(found, "Win rate / par")["attrs"]["aria-sort"] == "descending"
    assert header(found, "Average rank")["attrs"]["data-sort-first"] == "ascending"


def test_the_fair_bid_tables_sort_by_the_unrounded_win_rate(client, deep_vents_games):
    page = client.get(reverse("stats:strategies"), {"game": "deep-vents"})
    for fair in page.context["fair_bids"]:
        html = page.content.decode()
        start = html.index(f'id="fair-bid-{fair.player_count}"')
        found = table(html[start:], "stats-table")
        rates = [float(v) for v in column(found, "Win rate")]
        assert rates == pytest.approx([p.wins / p.games for p in fair.points], rel=1e-9)
        assert header(found, "Winning bid")["attrs"]["aria-sort"] == "ascending"


def test_every_leaderboard_number_carries_its_unrounded_value_to_sort_by(client):
    for index in range(10):
        verified_game(["ann", "bob", "cyd"], seed=300 + index, played_at=hours_ago(30 - index))
    verified_game(["ann", "dan"], seed=400, played_at=hours_ago(1))
    html = client.get("/leaderboards/deep-vents/").content.decode()
    established, provisional = Tables(html).tables
    ratings = {r.player.display_name: r for r in Rating.objects.select_related("player")}
    for found in (established, provisional):
        names = column(found, "Player")
        assert [float(v) for v in column(found, "Elo")] == pytest.approx(
            [ratings[n].rating for n in names], rel=1e-11
        )
        assert [float(v) for v in column(found, "OpenSkill")] == pytest.approx(
            [ratings[n].ordinal for n in names], rel=1e-9
        )
        assert column(found, "Games") == [str(ratings[n].games) for n in names]
        assert [float(v) for v in column(found, "Win rate")] == pytest.approx(
            [ratings[n].wins / ratings[n].games for n in names], rel=1e-9
        )
        assert header(found, "Elo")["attrs"]["aria-sort"] == "descending"
        assert header(found, "Trend")["attrs"]["data-sortable"] == "no"
    assert column(established, "#") == ["1", "2", "3"]
    assert column(provisional, "#") == [""]  # no position: sorts last


def test_the_standings_carry_their_unrounded_points_and_tiebreaks(client):
    load_tournament_demo()
    tournament = Tournament.objects.get(slug=demo.DEMO_SLUG)
    page = client.get(tournament.get_absolute_url())
    found = table(page.content.decode(), "standings")
    standings = page.context["standings"]
    assert column(found, "#") == [str(s.position) for s in standings]
    assert [float(v) for v in column(found, "Points")] == [s.points for s in standings]
    assert [float(v) for v in column(found, "SB")] == [s.sonneborn_berger for s in standings]
    assert column(found, "Avg place") == [
        "" if s.average_placement is None else repr(s.average_placement) for s in standings
    ]
    assert header(found, "#")["attrs"]["aria-sort"] == "ascending"
