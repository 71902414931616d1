"""A verified group never creates players in its own transaction: creating holds
players.services.CREATION_LOCK until the transaction ends, so every other worker meeting
a new name would wait for the group's storing, statistics and all. A name the group meets
with no player (the creation ahead of it failed, or a merge took the player since) ends
the group's try before anything is stored; the names are created in a short transaction of
their own, in the order the group meets them, and the group is tried again
(games.services.verification.record_together)."""

import pytest
from games_support import queued_human_log

from games.models import GameLog, GameSeat
from games.services import verification
from players.models import Player

pytestmark = pytest.mark.django_db


def test_a_groups_new_players_are_created_in_order_met_outside_the_groups_transaction(
    monkeypatch, creation_locks
):
    monkeypatch.setattr(verification, "NAMES_WITH_PLAYERS", set())
    # As though the creation ahead of the group had failed: the group meets every name new.
    monkeypatch.setattr(verification, "create_players_first", lambda names: None)
    first, second = ("Zed", "Nemo", "Abe"), ("Abe", "Yann", "Coral")

    verification.verify_logs([queued_human_log(1, first), queued_human_log(2, second)])

    assert creation_locks == [True]
    assert set(GameLog.objects.values_list("status", flat=True)) == {GameLog.Status.VERIFIED}
    met = ["Zed", "Nemo", "Abe", "Yann", "Coral"]
    assert list(Player.objects.order_by("pk").values_list("display_name", flat=True)) == met
    seated = GameSeat.objects.values_list("name", "player__display_name")
    assert all(name == player for name, player in seated)
