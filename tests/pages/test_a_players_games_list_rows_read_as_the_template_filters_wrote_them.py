"""A player's games list writes each row's link, date and place in Python (issue 25: through
reverse(), the date filter and localised numbers they were most of the list's time): the same
text as reverse(), `|date:"Y-m-d H:i"` in the current time zone and "{{ rank }} of {{ count }}"
give, computed here from the game seats."""

import datetime

import pytest
from django.template.defaultfilters import date as date_filter
from django.urls import clear_script_prefix, reverse, set_script_prefix
from django.utils import timezone

from common.quick_urls import quick_url
from games.models import GameSeat
from players.models import Player
from tests.ratings_support import verified_game

pytestmark = pytest.mark.django_db

# Minutes past the hour in UTC: the half-hour zone below moves both the hour and the minute,
# and the first game crosses midnight and a month's end there.
PLAYED = [
    datetime.datetime(2026, 3, 1, 2, 10, tzinfo=datetime.UTC),
    datetime.datetime(2026, 3, 4, 17, 45, tzinfo=datetime.UTC),
    datetime.datetime(2026, 3, 9, 23, 59, tzinfo=datetime.UTC),
]


@pytest.fixture
def ann(db) -> Player:
    verified_game(["ann", "bob", "cyd"], seed=41, played_at=PLAYED[0])
    verified_game(["bob", "ann"], seed=42, played_at=PLAYED[1])
    verified_game(["cyd", "dee", "bob", "ann"], seed=43, played_at=PLAYED[2])
    return Player.objects.get(handle="ann")


def expected_rows(player: Player) -> list[tuple[str, str, str]]:
    """(link, date, place) of the player's seats, newest first, as the template wrote them."""
    seats = GameSeat.objects.filter(player=player).select_related("game")
    return [
        (
            reverse("games:log", args=[seat.game.log_id]),
            date_filter(timezone.localtime(seat.game.played_at), "Y-m-d H:i"),
            f"{seat.rank} of {seat.game.player_count}",
        )
        for seat in sorted(seats, key=lambda s: (s.game.played_at, s.game_id), reverse=True)
    ]


@pytest.mark.parametrize("zone", ["UTC", "America/St_Johns", "Asia/Kathmandu"])
def test_each_rows_link_date_and_place_are_what_the_template_filters_gave(client, ann, zone):
    with timezone.override(zone):
        expected = expected_rows(ann)
        response = client.get("/players/ann/")
    rows = [(s.url, s.played, s.place) for s in response.context["seats"]]
    page = response.content.decode()

    assert rows == expected and len(rows) == 3
    for url, played, place in expected:
        assert f'<a href="{url}">{played}</a>' in page
        assert f"<td>{place}</td>" in page
    if zone == "America/St_Johns":  # 02:10 UTC on 1 March is the evening of 28 February
        assert expected[-1][1] == "2026-02-28 22:40"


def test_a_numbers_quick_url_is_what_reverse_gives_under_any_script_prefix():
    for number in [0, 7, 1234567890123]:
        assert quick_url("games:log", number) == reverse("games:log", args=[number])
    try:
        set_script_prefix("/mounted/")
        assert quick_url("games:log", 12) == "/mounted/games/12/"
        assert quick_url("games:log", 12) == reverse("games:log", args=[12])
    finally:
        clear_script_prefix()
    assert quick_url("games:log", 12) == "/games/12/"
