"""A log verified alone, and a log reverified, create no players in their own transaction,
as a group creates none in its own (test_a_group_creates_the_players_it_lacks_outside_its_
own_transaction.py): creating holds players.services.CREATION_LOCK until the transaction
ends, so every other worker meeting a new name would wait for this log's storing,
statistics and all. A name met with no player ends the try before anything is stored; the
names are created in a short transaction of their own, in the order met, and the log is
tried again (games.services.verification.players_created_apart)."""

import pytest
from games_support import queued_human_log

from games.models import Game, GameLog, GameSeat
from games.services import verification
from games.services.reverification import reverify_log
from players.models import Player

pytestmark = pytest.mark.django_db

NAMES = ("Zed", "Nemo", "Abe")


def players_in_order() -> list[str]:
    return list(Player.objects.order_by("pk").values_list("display_name", flat=True))


def seated_as_named() -> bool:
    seated = GameSeat.objects.values_list("name", "player__display_name")
    return bool(seated) and all(name == player for name, player in seated)


def test_a_log_verified_alone_creates_its_new_players_in_order_met_outside_its_transaction(
    creation_locks,
):
    log = verification.verify_log(queued_human_log(1, NAMES))

    assert log.status == GameLog.Status.VERIFIED
    assert creation_locks == [True]
    assert players_in_order() == list(NAMES)
    assert seated_as_named()


def test_a_reverified_log_creates_the_players_it_lacks_outside_its_transaction(creation_locks):
    log_id = queued_human_log(2, NAMES)
    verification.verify_log(log_id)
    # A log rejected until now, whose names have no player (none was ever created for them).
    Game.objects.filter(log_id=log_id).delete()
    Player.objects.all().delete()
    GameLog.objects.filter(pk=log_id).update(status="rejected", error={"kind": "illegal"})
    creation_locks.clear()

    change = reverify_log(log_id)

    assert (change.old_status, change.new_status) == ("rejected", "verified")
    assert creation_locks == [True]
    assert players_in_order() == list(NAMES)
    assert seated_as_named()
