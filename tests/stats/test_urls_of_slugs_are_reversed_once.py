"""common.quick_urls.slug_url says a pattern's URL once and writes each slug into it (the
leaderboard's players, the per-hex table's hexes): the very string reverse() gives, under
any script prefix, and reverse() itself for what it would quote."""

import pytest
from django.urls import NoReverseMatch, clear_script_prefix, reverse, set_script_prefix

from common.quick_urls import quick_url, slug_url

SLUGS = ["alice", "bob-2", "under_score", "HV3", "0"]
ODD = ["a b", "caf\N{LATIN SMALL LETTER E WITH ACUTE}", "x%y", "q?r"]


def test_a_slug_url_is_reverses_quoted_or_not():
    for slug in SLUGS + ODD:  # a player's URL takes any text
        assert slug_url("players:detail", slug) == reverse("players:detail", args=[slug])
    for slug in SLUGS:
        assert slug_url("stats:hex", slug) == reverse("stats:hex", args=[slug])


def test_a_slug_url_follows_the_script_prefix():
    try:
        set_script_prefix("/mounted/")
        assert slug_url("players:detail", "alice") == "/mounted/players/alice/"
        assert slug_url("players:detail", "alice") == reverse("players:detail", args=["alice"])
    finally:
        clear_script_prefix()
    assert slug_url("players:detail", "alice") == "/players/alice/"


def test_a_slug_the_pattern_refuses_is_refused_as_reverse_refuses_it():
    with pytest.raises(NoReverseMatch):
        reverse("stats:hex", args=["a b"])
    with pytest.raises(NoReverseMatch):
        slug_url("stats:hex", "a b")


def test_a_url_of_slugs_and_numbers_is_reverses():
    for args in [
        ("demo-open", 3, 12),
        ("x", 0, 1),
        ("a_b-9", 10, 987_654_301),
    ]:
        assert quick_url("tournaments:table", *args) == reverse("tournaments:table", args=args)
    for log_id in [1, 807, 987_654_300]:
        assert quick_url("games:log", log_id) == reverse("games:log", args=[log_id])
    with pytest.raises(NoReverseMatch):
        quick_url("games:log", -1)
    with pytest.raises(NoReverseMatch):
        quick_url("tournaments:table", "a b", 1, 2)
