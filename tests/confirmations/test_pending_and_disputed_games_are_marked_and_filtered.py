"""Games not counted yet say so, and can be picked out: in the games list, on player pages
and in the API (`confirmation`: counts, pending, disputed, rejected; `?confirmation=`). The
expected state of each game is read from the confirmations app's own rows."""

from __future__ import annotations

import re

import pytest

from confirmations import services
from confirmations.models import Review
from games.models import Game
from tests.confirmation_support import (
    player_with_login,
    submitted_game,
)

pytestmark = pytest.mark.django_db
MARKS = {"pending": "waiting for confirmation", "disputed": "disputed", "rejected": "rejected"}


@pytest.fixture
def games() -> dict[str, Game]:
    """Ann's games: one each waiting for Bea, disputed by Cid, rejected by staff, confirmed,
    and one nobody is asked about (a guest)."""
    ann, _bea, cid = (player_with_login(name) for name in ("Ann", "Bea", "Cid"))
    made = {
        "pending": submitted_game(["Ann", "Bea"], ann.user, seed=1),
        "disputed": submitted_game(["Ann", "Cid"], ann.user, seed=2),
        "rejected": submitted_game(["Ann", "Bea", "Cid"], ann.user, seed=3),
        "confirmed": submitted_game(["Ann", "Cid", "Guest"], ann.user, seed=4),
        "guest": submitted_game(["Ann", "Guest"], ann.user, seed=5),
    }
    services.dispute(made["disputed"].log_id, cid.user, 1, "the second bid was 3")
    services.reject(Review.objects.get(log_id=made["rejected"].log_id).pk, None, "no")
    services.confirm(made["confirmed"].log_id, cid.user)
    return made


def expected_states() -> dict[int, str]:
    """Each game's state (by log id) from the reviews themselves: a game without a review,
    or whose review counted, counts."""
    reviews = dict(Review.objects.values_list("log_id", "status"))
    return {
        log_id: "counts" if reviews.get(log_id, "counted") == "counted" else reviews[log_id]
        for log_id in Game.objects.values_list("log_id", flat=True)
    }


def test_the_worked_example_has_every_state(games):
    states = expected_states()
    assert sorted(states[game.log_id] for game in games.values()) == [
        "counts", "counts", "disputed", "pending", "rejected",
    ]  # fmt: skip


def test_the_api_says_where_each_game_stands(games, client):
    results = client.get("/api/games/").json()["results"]

    assert {game["log"]: game["confirmation"] for game in results} == expected_states()
    assert all(game["counts"] == (game["confirmation"] == "counts") for game in results)


@pytest.mark.parametrize("state", ["pending", "disputed", "rejected", "counts"])
def test_the_api_filters_by_confirmation(games, client, state):
    results = client.get(f"/api/games/?confirmation={state}").json()["results"]

    wanted = {log for log, s in expected_states().items() if s == state}
    assert wanted and {game["log"] for game in results} == wanted


def test_the_api_refuses_a_state_that_does_not_exist(games, client):
    response = client.get("/api/games/?confirmation=maybe")

    assert response.status_code == 400
    assert "confirmation" in response.json()


def rows(page: str) -> dict[int, tuple[str, str]]:
    """The listed games: log id -> (data-confirmation, the row's text)."""
    found = re.findall(
        r'<tr data-confirmation="([^"]*)"><td><a href="/games/(\d+)/">(.*?)</tr>', page, re.S
    )
    return {int(log): (state, text) for state, log, text in found}


def test_the_games_list_marks_each_game_not_counted_yet(games, client):
    listed = rows(client.get("/games/").content.decode())

    states = expected_states()
    assert {log: state for log, (state, _) in listed.items()} == states
    for log, (state, text) in listed.items():
        if state in MARKS:
            assert f">{MARKS[state]}</span>" in text, log
        else:
            assert "confirmation-mark" not in text, log


@pytest.mark.parametrize("state", ["pending", "disputed"])
def test_the_games_list_filters_by_confirmation(games, client, state):
    page = client.get(f"/games/?confirmation={state}").content.decode()

    wanted = {log for log, s in expected_states().items() if s == state}
    assert set(rows(page)) == wanted
    assert f'<option value="{state}" selected>' in page


def test_a_player_page_marks_their_games_and_links_to_the_filters(games, client):
    page = client.get("/players/bea/").content.decode()

    listed = {
        int(log): state
        for state, log in re.findall(
            r'<tr data-confirmation="([^"]*)"><td><a href="/games/(\d+)/">', page
        )
    }
    beas = set(Game.objects.filter(seats__player__handle="bea").values_list("log_id", flat=True))
    states = expected_states()
    assert listed == {log: states[log] for log in beas}
    assert 'href="/games/?player=bea&amp;confirmation=pending"' in page
    assert ">waiting for confirmation</span>" in page and ">rejected</span>" in page
