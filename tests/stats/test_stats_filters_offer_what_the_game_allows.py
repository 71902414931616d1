"""The statistics filter bar offers only what the chosen game allows, takes months typed as
YYYY-MM in any browser, and says beside a field why it refused it, keeping what was typed."""

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from engines.registry import GAMES, get_game
from tests.stats_support import verified_games

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


class FilterBar(HTMLParser):
    """The filter form's inputs and selects: name -> attributes (selects: with their options'
    values), and the error text beside each field."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.fields: dict[str, dict] = {}
        self.errors: dict[str, str] = {}
        self.select: str | None = None
        self.error: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs) -> None:
        attrs = dict(attrs)
        if tag in ("input", "select") and attrs.get("name"):
            self.fields[attrs["name"]] = {**attrs, "options": []}
            self.select = attrs["name"] if tag == "select" else None
        elif tag == "option" and self.select:
            self.fields[self.select]["options"].append(attrs.get("value"))
        elif tag == "span" and "error" in attrs.get("class", ""):
            self.error = attrs["id"].removeprefix("id_").removesuffix("-error")
            self.errors[self.error] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "span":
            self.error = None

    def handle_data(self, data: str) -> None:
        if self.error:
            self.errors[self.error] += data


def filter_bar(client, path: str, **params: str) -> FilterBar:
    response = client.get(path, params)
    assert response.status_code == 200
    return FilterBar(response.content.decode())


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_player_counts_offered_are_the_games_own(client, game_id):
    game = get_game(game_id)
    bar = filter_bar(client, reverse("stats:strategies"), game=game_id)
    offered = [int(v) for v in bar.fields["players"]["options"] if v]
    assert offered == list(range(game.min_players, game.max_players + 1))
    assert [v for v in bar.fields["ruleset"]["options"] if v] == sorted(game.rulesets())
    assert [v for v in bar.fields["strategy"]["options"] if v] == sorted(game.strategies)


def test_a_player_count_the_game_does_not_have_is_refused_beside_the_field(client):
    game = get_game("deep-vents")
    bar = filter_bar(client, reverse("stats:strategies"), game="deep-vents", players="5")
    assert "5" not in bar.fields["players"]["options"]
    assert bar.errors["players"] == (
        f"{game.title} is played by {game.min_players} to {game.max_players} players."
    )


def test_the_hex_pages_offer_only_games_with_hexes(client):
    bar = filter_bar(client, reverse("stats:hexes"))
    assert bar.fields["game"]["options"] == ["deep-vents"]


def test_months_are_text_boxes_with_a_pattern_any_browser_checks(client):
    bar = filter_bar(client, reverse("stats:hexes"))
    for name in ("since", "until"):
        month = bar.fields[name]
        assert month["type"] == "text"
        assert month["placeholder"] == "YYYY-MM"
        assert month["pattern"] and "YYYY-MM" in month["title"]


def test_a_month_that_is_not_one_is_refused_beside_its_field_and_kept_as_typed(
    client, django_capture_on_commit_callbacks
):
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 2, seed="months")
    response = client.get(reverse("stats:hexes"), {"since": "2026-13", "min_sample": 1})
    bar = FilterBar(response.content.decode())
    assert bar.fields["since"]["value"] == "2026-13"
    assert bar.errors["since"] == "A month as YYYY-MM, e.g. 2026-03."
    assert response.context["rows"]  # the other filters still apply


def test_a_range_that_ends_before_it_starts_is_refused(client):
    bar = filter_bar(client, reverse("stats:hexes"), since="2026-05", until="2026-02")
    assert bar.errors["until"] == "The range ends before it starts (2026-05)."
    assert bar.fields["until"]["value"] == "2026-02"


def test_a_month_range_filters_by_the_months_typed(client, django_capture_on_commit_callbacks):
    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 2, seed="months")
    params = {"since": "2001-01", "until": "2001-02", "min_sample": 1}
    response = client.get(reverse("stats:hexes"), params)
    assert not response.context["filters"].errors
    assert response.context["rows"] == []  # every game was played this year


def test_no_statistics_code_names_a_game_outside_the_adapters():
    """Issue 26: the game of a page is chosen from the registry, what a game needs comes
    from its adapter (stats/adapters.py), so no game id appears anywhere else."""
    files = [
        *(ROOT / "stats").rglob("*.py"),
        *(ROOT / "templates" / "stats").glob("*.html"),
    ]
    named = [
        (path.relative_to(ROOT).as_posix(), game_id)
        for path in files
        if path.name != "adapters.py" and "migrations" not in path.parts
        for game_id in GAMES
        for quote in "\"'"
        if f"{quote}{game_id}{quote}" in path.read_text()
    ]
    assert named == []
