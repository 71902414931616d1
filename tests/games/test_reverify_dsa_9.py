"""`reverify --all` reports the stored games DSA-9 changes: a dive the engine used to end
when a turned-back diver was swimming home empty-handed (issue 13)."""

from io import StringIO

import pytest
from deep_sea_adventure_support import DIVE_GOES_ON, DROP_AND_SWIM_HOME, dsa_9_log
from django.core.management import call_command
from games_support import submit, text

from engines.deep_sea_adventure.state import DeepSeaState
from games.models import Game, GameLog, VerdictChange

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


def stalled_before_dsa_9(self: DeepSeaState) -> bool:
    """The stall rule as the engine had it before DSA-9: a turned-back diver stalled the
    dive when nothing lay between it and the submarine."""
    for seat in range(self.players):
        if self.returned[seat]:
            continue
        if self.carried[seat]:
            return False
        here = self.position[seat]
        ahead = self.path[:here] if self.turned[seat] else self.path[max(here - 1, 0) :]
        if any(ahead):
            return False
    return True


def test_a_game_stored_under_the_old_stall_rule_is_reported_as_a_verdict_change_dsa_9(
    submit, monkeypatch
):
    with monkeypatch.context() as old_engine:
        old_engine.setattr(DeepSeaState, "_stuck", stalled_before_dsa_9)
        stored = submit(text(dsa_9_log(DROP_AND_SWIM_HOME)))
    assert stored.status == GameLog.Status.VERIFIED
    untouched = submit(text(dsa_9_log(DROP_AND_SWIM_HOME + DIVE_GOES_ON)))

    out = StringIO()
    call_command("reverify", "--all", stdout=out)

    change = VerdictChange.objects.get()
    assert change.log_id == stored.pk
    assert (change.old_status, change.new_status) == ("verified", "rejected")
    stored.refresh_from_db()
    # Seat 0 is still swimming home (DSA-9), so seat 1's next event is out of turn.
    assert stored.error["index"] == len(DROP_AND_SWIM_HOME)
    assert stored.error["rule"] == "DSA-3"
    assert not Game.objects.filter(log=stored).exists()
    assert Game.objects.filter(log=untouched).exists()
    assert f"log {stored.pk}: verified -> rejected" in out.getvalue()
    assert "2 logs replayed, 1 changed." in out.getvalue()
