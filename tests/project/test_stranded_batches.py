"""A batch whose reading stopped is read again by the sweep (games/services/sweep.py): one
left waiting when its reading task's message was lost, and one whose reader died mid-file
(no position saved for two leases). The new reader resumes at the saved position, so every
line ends stored exactly once."""

import io
from datetime import timedelta

import pytest
from django.utils import timezone
from games_support import human_log, jsonl

from games.models import BatchState, GameLog, Source, Upload
from games.services import sweep
from games.services.batch_intake import start_batch, store_body

pytestmark = pytest.mark.django_db


def stored_batch(logs: int, *, first_seed: int = 0) -> Upload:
    """A batch stored as the request stores it, its reading message never sent (lost)."""
    body = store_body(
        io.BytesIO(jsonl(*(human_log(seed=first_seed + n) for n in range(logs)))), expected=None
    )
    return start_batch(body, user=None, source=Source.SIMULATED, filename="night.jsonl")


def aged(upload: Upload, seconds: float, **fields) -> None:
    moment = timezone.now() - timedelta(seconds=seconds)
    Upload.objects.filter(pk=upload.pk).update(created=moment, **fields)


def test_a_waiting_batch_whose_message_was_lost_is_read_by_the_sweep(
    settings, django_capture_on_commit_callbacks
):
    upload = stored_batch(3)
    aged(upload, settings.GAMES_STUCK_AFTER_SECONDS + 1)  # no broker to ask: waits this long

    with django_capture_on_commit_callbacks(execute=True):
        resent = sweep.resend_stranded_batches()

    upload.refresh_from_db()
    assert resent == 1
    assert upload.batch_state == BatchState.READ
    assert sorted(upload.logs.values_list("line", flat=True)) == [1, 2, 3]


def test_a_batch_waiting_less_long_is_left_alone(django_capture_on_commit_callbacks):
    upload = stored_batch(2)

    with django_capture_on_commit_callbacks(execute=True):
        resent = sweep.resend_stranded_batches()

    upload.refresh_from_db()
    assert (resent, upload.batch_state) == (0, BatchState.WAITING)


def test_a_batch_whose_reader_died_mid_file_resumes_at_its_saved_position(
    settings, django_capture_on_commit_callbacks
):
    upload = stored_batch(3, first_seed=10)
    first_line = len(jsonl(human_log(seed=10)).splitlines(keepends=True)[0])
    with django_capture_on_commit_callbacks(execute=True):  # the dead reader stored line 1
        GameLog.objects.create(
            upload=upload,
            line=1,
            raw=jsonl(human_log(seed=10)).decode().strip(),
            sha256=GameLog.digest(jsonl(human_log(seed=10)).decode().strip()),
            game_type="deep-dive",
        )
    stale = 2 * settings.GAMES_LEASE_SECONDS + 1
    Upload.objects.filter(pk=upload.pk).update(
        batch_state=BatchState.READING,
        bytes_read=first_line,
        lines_read=1,
        batch_progress_at=timezone.now() - timedelta(seconds=stale),
    )

    with django_capture_on_commit_callbacks(execute=True):
        resent = sweep.resend_stranded_batches()

    upload.refresh_from_db()
    assert resent == 1
    assert upload.batch_state == BatchState.READ
    assert sorted(upload.logs.values_list("line", flat=True)) == [1, 2, 3]
    assert upload.duplicates == []


def test_a_batch_still_saving_its_position_is_left_to_its_reader(
    django_capture_on_commit_callbacks,
):
    upload = stored_batch(2, first_seed=20)
    Upload.objects.filter(pk=upload.pk).update(
        batch_state=BatchState.READING, batch_progress_at=timezone.now()
    )

    with django_capture_on_commit_callbacks(execute=True):
        resent = sweep.resend_stranded_batches()

    assert resent == 0
    assert not GameLog.objects.filter(upload=upload).exists()
