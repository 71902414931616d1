"""The statistics filter bar is drawn by quick widgets (common/widgets.py), written out in
Python instead of Django's widget templates: byte for byte the same HTML, errors, escaping
and all."""

import pytest
from django import forms
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from common.widgets import QuickSelect
from stats.adapters import hex_games
from stats.filters import StatsFilter
from tests.widgets_support import with_djangos_widgets

QUERIES = [
    "",
    "game=deep-vents&since=2024-01&until=2024-12",
    "game=deep-vents&since=2024-01&until=2023-12&players=9",
    "game=deep-dive&band=%3C1400&strategy=nobody&min_sample=5",
    "game=deep-sea-adventure&source=human&ruleset=standard&players=3&min_sample=abc",
    "game=%22%3E%3Cb%3E&since=%22%3E%26&until=2024-13&min_sample=0&band=1800%2B",
    "game=deep-sea-adventure-boost&strategy=grab-2-then-turn&source=simulated",
]


def bar(form: StatsFilter) -> str:
    return render_to_string("stats/_filters.html", {"filters": form})


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("games", [None, hex_games()], ids=["every game", "hex games"])
def test_the_filter_bar_is_the_html_djangos_widgets_write(query, games):
    def form() -> StatsFilter:
        kwargs = {} if games is None else {"games": games}
        return StatsFilter(QueryDict(query), **kwargs)

    quick, stock = bar(form()), bar(with_djangos_widgets(form()))
    assert "<option" in quick and "<input" in quick
    assert quick == stock


def test_a_quick_select_escapes_values_and_labels_as_django_does_and_keeps_safe_ones():
    choices = [("", "Any"), ("<a&b>", 'say "hi"'), ("safe", mark_safe("<em>bold</em>")), (3, 3)]
    for value in ("<a&b>", "3", "", None, "missing"):
        attrs = {"id": "id_x", "data-note": "a<b", "required": True, "hidden": False}
        quick = QuickSelect(choices=choices).render("x", value, attrs)
        stock = forms.Select(choices=choices).render("x", value, attrs)
        assert quick == stock, value


def test_a_select_with_option_groups_falls_back_to_djangos_templates():
    choices = [("Deep", [("a", "A"), ("b", "B")]), ("c", "C")]
    assert QuickSelect(choices=choices).render("x", "b") == forms.Select(choices=choices).render(
        "x", "b"
    )
