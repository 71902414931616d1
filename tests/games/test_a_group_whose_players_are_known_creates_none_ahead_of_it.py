"""A group whose every name this worker has read players for creates none ahead of its
transaction (issue 25: a group's names were read twice); a name whose player has gone
since is still given one, in a transaction of its own before the group's is tried again
(games.services.verification.record_together)."""

import pytest
from games_support import queued_human_log

from games.models import GameLog, GameSeat
from games.services import verification
from players.models import Player

pytestmark = pytest.mark.django_db


def test_known_names_skip_the_creation_ahead_and_a_gone_player_is_made_again(monkeypatch):
    monkeypatch.setattr(verification, "NAMES_WITH_PLAYERS", set())
    created: list[list[str]] = []
    create = verification.create_missing_players
    monkeypatch.setattr(
        verification, "create_missing_players", lambda names: created.append(names) or create(names)
    )
    names = ("Newcomer", "Nemo", "Coral")

    verification.verify_logs([queued_human_log(1, names)])
    assert created == [list(names)]
    assert set(names) == verification.NAMES_WITH_PLAYERS

    verification.verify_logs([queued_human_log(2, names)])
    assert created == [list(names)]  # nothing created ahead of the second group

    # Its player gone (a merge deletes the duplicate), a known name still gets one.
    GameSeat.objects.all().delete()
    Player.objects.filter(handle="nemo").delete()
    log_id = queued_human_log(3, names)
    verification.verify_logs([log_id])
    assert created == [list(names), list(names)]  # the second by the group, ahead of its retry
    assert GameLog.objects.get(pk=log_id).status == GameLog.Status.VERIFIED
    nemo = Player.objects.get(handle="nemo")
    assert GameSeat.objects.get(game__log_id=log_id, name="Nemo").player_id == nemo.pk
