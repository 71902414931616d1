"""A game is named as its players know it, never by a log id: the game, the day, and the
tournament, round and table it was played at, else its players (games.names.game_name)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.names import game_name
from games.templatetags.game_names import in_phrases
from tests.confirmation_support import player_with_login, running_table, submitted_game
from tests.notices_support import NAMES

pytestmark = pytest.mark.django_db
PLAYED = datetime.datetime(2026, 11, 28, 19, 30, tzinfo=datetime.UTC)
AT_THE_TABLE = "Deep Vents, 28 Nov 2026: Club Night · round 1 · table 1"


@pytest.fixture
def at_no_table():
    return submitted_game(NAMES, played_at=PLAYED)


@pytest.fixture
def at_a_table():
    table = running_table([player_with_login(name) for name in NAMES])
    return submitted_game(NAMES, played_at=PLAYED, table=table)


def test_a_game_at_no_table_is_named_by_its_game_day_and_players(at_no_table):
    assert (
        game_name(at_no_table) == "Deep Vents, 28 Nov 2026: Ann Abyss, Bea Benthic, Cid Cephalopod"
    )


def test_a_tournament_game_is_named_by_its_tournament_round_and_table(at_a_table):
    assert game_name(at_a_table) == AT_THE_TABLE


def test_a_game_read_with_its_table_and_seats_is_named_without_a_query(at_a_table):
    game = (
        Game.objects.select_related("log__table__round__tournament")
        .prefetch_related("seats")
        .get(pk=at_a_table.pk)
    )
    with CaptureQueriesContext(connection) as queries:
        game_name(game)
    assert len(queries) == 0


def test_a_game_reads_as_its_name(at_a_table):
    assert str(at_a_table) == AT_THE_TABLE


def test_the_game_page_is_titled_and_headed_by_the_name_not_the_log_id(client, at_a_table):
    page = client.get(f"/games/{at_a_table.log_id}/").content.decode()

    title = re.search(r"<title>(.*?)</title>", page, re.S)[1]
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)[1]
    assert title.startswith(f"{AT_THE_TABLE} · ")
    assert re.sub(r"<[^>]+>", "", heading) == AT_THE_TABLE
    assert f"log {at_a_table.log_id}" not in title + heading


def test_the_heading_breaks_lines_between_the_names_phrases(client, at_a_table):
    page = client.get(f"/games/{at_a_table.log_id}/").content.decode()

    assert re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)[1] == (
        '<span class="phrase">Deep Vents, 28 Nov 2026:</span> '
        '<span class="phrase">Club Night ·</span> <span class="phrase">round 1 ·</span> '
        '<span class="phrase">table 1</span>'
    )


def test_a_name_is_split_into_phrases_with_its_markup_escaped():
    assert in_phrases("Deep Dive, 1 Dec 2026: <b>Ann</b>, Bea") == (
        '<span class="phrase">Deep Dive, 1 Dec 2026:</span> '
        '<span class="phrase">&lt;b&gt;Ann&lt;/b&gt;, Bea</span>'
    )
