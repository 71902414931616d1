"""`reverify` replays stored logs with the current engine and records changed verdicts or
scores; a game that no longer verifies is retracted. The sweep re-queues stuck logs."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from games_support import human_log, submit, text

from games.models import Game, GameLog, VerdictChange
from games.services.sweep import requeue_stuck_logs
from games.signals import game_retracted

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


def run_reverify() -> str:
    out = StringIO()
    call_command("reverify", "--all", stdout=out)
    return out.getvalue()


def test_an_unchanged_engine_changes_nothing(submit):
    submit(text(human_log(seed=120)))

    output = run_reverify()

    assert "1 logs replayed, 0 changed." in output
    assert not VerdictChange.objects.exists()


def test_a_game_the_engine_no_longer_accepts_is_retracted_and_recorded(submit, monkeypatch):
    stored = submit(text(human_log(seed=121)))
    retracted = []

    def receiver(game, **kwargs):
        retracted.append(game.log_id)

    def stricter_replay(log, **kwargs):
        from engines import IllegalEventError

        raise IllegalEventError("a rule fixed since", index=2, seat=1, rule="DD-1")

    monkeypatch.setattr("games.services.reverification.engines.replay", stricter_replay)
    game_retracted.connect(receiver)
    try:
        output = run_reverify()
    finally:
        game_retracted.disconnect(receiver)

    stored.refresh_from_db()
    assert stored.status == GameLog.Status.REJECTED
    assert stored.error["rule"] == "DD-1"
    assert retracted == [stored.pk]
    assert not Game.objects.exists()
    change = VerdictChange.objects.get()
    assert (change.old_status, change.new_status) == ("verified", "rejected")
    assert f"log {stored.pk}: verified -> rejected" in output


def test_changed_scores_are_recorded_and_the_game_derived_again(submit):
    stored = submit(text(human_log(seed=122)))
    Game.objects.get(log=stored).seats.filter(seat=0).update(score=-99)

    output = run_reverify()

    change = VerdictChange.objects.get()
    assert change.old_scores[0]["score"] == -99
    assert change.new_scores[0]["score"] == human_log(seed=122)["result"]["scores"][0]
    assert Game.objects.get(log=stored).seats.get(seat=0).score != -99
    assert "1 changed" in output


def test_a_rejected_log_the_engine_now_accepts_becomes_a_game(submit):
    stored = submit(text(human_log(seed=123)))
    Game.objects.filter(log=stored).delete()
    GameLog.objects.filter(pk=stored.pk).update(status="rejected", error={"kind": "illegal"})

    run_reverify()

    assert Game.objects.filter(log=stored).exists()
    assert VerdictChange.objects.get().new_status == "verified"


def test_the_sweep_requeues_logs_stuck_in_queued_or_verifying(
    submit, django_capture_on_commit_callbacks
):
    from games.services.intake import submit_log

    stuck = submit_log(text(human_log(seed=124)), user=None)  # never verified
    GameLog.objects.filter(pk=stuck.pk).update(status=GameLog.Status.VERIFYING, attempts=1)
    fresh = submit_log(text(human_log(seed=125)), user=None)

    with django_capture_on_commit_callbacks(execute=True):
        GameLog.objects.filter(pk=stuck.pk).update(
            status_changed=stuck.status_changed - timedelta(hours=1)
        )
        requeued = requeue_stuck_logs()

    assert requeued == 1
    stuck.refresh_from_db()
    assert (stuck.status, stuck.attempts) == ("verified", 2)
    assert GameLog.objects.get(pk=fresh.pk).status == "queued"
