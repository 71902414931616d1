"""A player with no result yet shows a dash for place and points in the standings (the
tournament page, a player's page, the venue screen), not a 0 and a rank that would read as
a real result; a player who placed last with 0 points shows them."""

from __future__ import annotations

import csv
import io
import re

import pytest

from tournaments.services.standings import tournament_standings

pytestmark = pytest.mark.django_db
DASH = "\N{EN DASH}"
# The standings CSV's columns the page shows as a dash for a player with no result yet.
SHOWN_AS_A_DASH = [
    "position",
    "points",
    "sonneborn_berger",
    "opponents_average",
    "average_placement",
    "game_score",
]


def cells(page: str, handle: str) -> list[str]:
    """The text of each cell of the row for this player."""
    row = re.search(rf'<tr data-handle="{handle}"[^>]*>(.*?)</tr>', page, re.S)
    assert row, f"no row for {handle}"
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    ]


def test_a_player_is_placed_once_they_have_a_result(one_table_played):
    placed = {
        row.player.pk: row.placed for row in tournament_standings(one_table_played.tournament)
    }

    assert all(placed[player.pk] for player in one_table_played.played)
    assert not any(placed[player.pk] for player in one_table_played.waiting)


def test_the_tournament_page_shows_results_and_dashes_for_players_without_one(one_table_played):
    page = one_table_played.client(None).get(one_table_played.url()).content.decode()

    # Four players at one table: 3 x (opponents outranked) / 3 points, placed in seat order.
    for place, player in enumerate(one_table_played.played, start=1):
        row = cells(page, player.handle)
        assert row[0] == str(place)
        assert row[2] == f"{4 - place:.2f}"
    for player in one_table_played.waiting:
        row = cells(page, player.handle)
        assert row[0] == DASH
        assert row[2] == DASH
        assert row[3] == "0"  # tables played: a count, true as it is
        assert row[4:] == [DASH, DASH, DASH, DASH]


@pytest.mark.parametrize("page_tail", ["me/", "screen/"])
def test_a_players_page_and_the_venue_screen_show_dashes_too(one_table_played, page_tail):
    someone = one_table_played.players["Marina Abyss"]
    page = one_table_played.client(someone).get(one_table_played.url(page_tail)).content.decode()

    last = one_table_played.played[-1]
    assert cells(page, last.handle)[:1] + cells(page, last.handle)[2:3] == ["4", "0.00"]
    for player in one_table_played.waiting:
        row = cells(page, player.handle)
        assert (row[0], row[2]) == (DASH, DASH)


def test_the_standings_csv_leaves_place_points_and_tiebreaks_empty_for_players_without_one(
    one_table_played,
):
    response = one_table_played.client(None).get(one_table_played.url() + "?format=csv")
    rows = {row["handle"]: row for row in csv.DictReader(io.StringIO(response.content.decode()))}

    last = rows[one_table_played.played[-1].handle]
    assert (last["position"], last["points"]) == ("4", "0.0")
    for player in one_table_played.waiting:
        row = rows[player.handle]
        assert row["tables"] == "0"  # a count, true as it is
        assert [row[column] for column in SHOWN_AS_A_DASH] == [""] * len(SHOWN_AS_A_DASH)
