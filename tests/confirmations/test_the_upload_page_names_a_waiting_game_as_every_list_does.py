"""The upload page's list of games waiting for confirmation names each game as every list
of games does (games.names.names_of_logs, the admin's lists' names too): the day and the
players of a game played at no table, the day and the table of a tournament's game."""

from __future__ import annotations

import datetime
import re

import pytest

from confirmations.models import Review
from games.names import names_of_logs
from tests.confirmation_support import player_with_login, running_table, submitted_game

pytestmark = pytest.mark.django_db
PLAYED = datetime.datetime(2026, 12, 3, 19, 30, tzinfo=datetime.UTC)


def waiting_rows(client, game) -> dict[int, str]:
    """The upload page's rows: each log's id and the name its link shows."""
    client.force_login(game.log.upload.submitted_by)
    page = client.get(game.log.upload.get_absolute_url()).content.decode()
    rows = re.findall(r'<li data-log="(\d+)"><a href="[^"]+">([^<]+)</a> — waiting for', page)
    return {int(log_id): name for log_id, name in rows}


def test_a_game_played_at_no_table_is_named_by_its_day_and_players(client):
    ann, bea = player_with_login("Ann"), player_with_login("Bea")
    game = submitted_game([ann.handle, bea.handle, "Guest"], ann.user, played_at=PLAYED)
    assert Review.objects.get(log=game.log).status == Review.Status.PENDING

    rows = waiting_rows(client, game)

    assert rows == {game.log_id: "Deep Vents, 3 Dec 2026: ann, bea, Guest"}
    assert rows == names_of_logs([game.log_id])


def test_a_tournament_game_is_named_by_its_day_and_table(client):
    players = [player_with_login(name) for name in ("Ann", "Bea", "Cid")]
    table = running_table(players)
    handles = [player.handle for player in players]
    game = submitted_game(handles, players[0].user, played_at=PLAYED, table=table)

    rows = waiting_rows(client, game)

    assert rows == {game.log_id: "Deep Vents, 3 Dec 2026: Club Night · round 1 · table 1"}
    assert rows == names_of_logs([game.log_id])
