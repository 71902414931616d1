"""The tournament page reads its tables as plain values (tournaments.services.tournament_page,
issue 25), and shows each as its own table page does: a game uploaded by a seated player
is no result until the others confirm it (Table.game), then the verified result, with the
standings counting it only then."""

from __future__ import annotations

import pytest

from confirmations import services
from tests.confirmation_support import player_with_login, running_table, submitted_game
from tournaments.models import Table

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cid"]


def test_a_game_waiting_for_confirmation_is_awaited_then_shown_once_confirmed(client):
    ann, bea, cid = (player_with_login(name) for name in NAMES)
    table = running_table([ann, bea, cid])
    game = submitted_game(NAMES, ann.user, table=table)
    page = table.round.tournament.get_absolute_url()

    waiting = client.get(page).content.decode()
    services.confirm(game.log_id, bea.user)
    services.confirm(game.log_id, cid.user)
    counted = client.get(page).content.decode()

    assert Table.objects.get(pk=table.pk).result_kind == "verified"  # as its table page says
    assert "awaiting result" in waiting and "verified result" not in waiting
    assert "the game</a>" not in waiting and 'data-sort="1.0">1.00</td>' not in waiting
    assert "verified result" in counted and f'href="/games/{game.log_id}/">the game</a>' in counted
    assert counted.count('data-sort="1.0">1.00</td>') == 1  # the winner's placement
