"""The API's games list builds its filter set (GameFilter and its form) only when a request
names a parameter besides the page's cursor: building one for nothing was a tenth of the
list's time (games.api.GameFilterBackend; issue 25). Filters and their refusals are the
same as ever (test_game_list_filters.py, test_bad_input.py)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from urllib.parse import urlencode

import pytest
from django.utils import timezone

from games.filters import GameFilter
from games.pagination import GameCursorPagination

pytestmark = pytest.mark.django_db


@pytest.fixture
def filter_sets(monkeypatch) -> list[GameFilter]:
    """Every GameFilter built while the test runs."""
    built = []
    building = GameFilter.__init__

    def counted(self, *args, **kwargs) -> None:
        built.append(self)
        building(self, *args, **kwargs)

    monkeypatch.setattr(GameFilter, "__init__", counted)
    return built


def a_deep_page() -> str:
    moment = SimpleNamespace(played_at=timezone.now() - datetime.timedelta(days=30))
    return "/api/games/?" + urlencode({"cursor": GameCursorPagination.cursor_of(moment)})


def test_the_first_and_a_deep_page_build_no_filter_set(client, filter_sets):
    assert client.get("/api/games/").status_code == 200
    assert client.get(a_deep_page()).status_code == 200

    assert filter_sets == []


@pytest.mark.parametrize("query", ["game=deep-vents", "confirmation=maybe", "anything=1"])
def test_a_page_asked_for_anything_else_builds_one(client, filter_sets, query):
    client.get(f"/api/games/?{query}")
    client.get(f"{a_deep_page()}&{query}")

    assert len(filter_sets) == 2
