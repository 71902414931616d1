"""Players with no result yet tie on every column (all dashes), and only their seeded draw
orders them: the pages and the CSV show them by name (players.names.sort_key), below the
placed players, while the seating of the next round keeps reading the draw's order."""

from __future__ import annotations

import csv
import io
import re

import pytest

from players.names import sort_key
from tournaments.models import Registration
from tournaments.services.seating import players_to_seat, seeding_order
from tournaments.services.standings import tournament_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn_against_the_alphabet(one_table_played):
    """The players still playing drawn in reverse name order: their draw order and their
    name order disagree everywhere."""
    waiting = sorted(one_table_played.waiting, key=lambda p: sort_key(p.display_name))
    for draw, player in enumerate(reversed(waiting)):
        Registration.objects.filter(tournament=one_table_played.tournament, player=player).update(
            draw=draw / 10
        )
    one_table_played.by_name = [player.handle for player in waiting]
    one_table_played.by_draw = one_table_played.by_name[::-1]
    one_table_played.placed = [player.handle for player in one_table_played.played]
    return one_table_played


def handles_in_page_order(page: str) -> list[str]:
    return re.findall(r'<tr data-handle="([^"]+)"', page)


def test_the_tournament_page_lists_players_without_a_result_by_name(drawn_against_the_alphabet):
    harbour = drawn_against_the_alphabet
    page = harbour.client(None).get(harbour.url()).content.decode()

    assert handles_in_page_order(page) == harbour.placed + harbour.by_name


@pytest.mark.parametrize("page_tail", ["me/", "screen/"])
def test_a_players_page_and_the_venue_screen_list_them_by_name_too(
    drawn_against_the_alphabet, page_tail
):
    harbour = drawn_against_the_alphabet
    someone = harbour.players["Marina Abyss"]
    page = harbour.client(someone).get(harbour.url(page_tail)).content.decode()

    assert handles_in_page_order(page) == harbour.placed + harbour.by_name


def test_the_standings_csv_lists_them_by_name(drawn_against_the_alphabet):
    harbour = drawn_against_the_alphabet
    response = harbour.client(None).get(harbour.url() + "?format=csv")
    rows = csv.DictReader(io.StringIO(response.content.decode()))

    assert [row["handle"] for row in rows] == harbour.placed + harbour.by_name


def test_seating_the_next_round_still_reads_them_in_the_draws_order(drawn_against_the_alphabet):
    harbour = drawn_against_the_alphabet
    handles = {row.player_id: row.player.handle for row in tournament_standings(harbour.tournament)}

    order = seeding_order(harbour.tournament, players_to_seat(harbour.tournament, 2), number=2)

    assert [handles[player] for player in order] == harbour.placed + harbour.by_draw


def test_how_standings_are_decided_says_players_without_a_result_are_listed_by_name(
    drawn_against_the_alphabet,
):
    page = drawn_against_the_alphabet.client(None).get(drawn_against_the_alphabet.url())

    assert "Players with no result yet show a dash and are listed by name." in page.content.decode()
