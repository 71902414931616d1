"""Celery tasks: thin wrappers taking ids; the work is in games/services/."""

from celery import shared_task
from django.conf import settings

from games.services import sweep, verification


@shared_task
def verify_log_task(log_id: int) -> None:
    verification.verify_log(log_id)


@shared_task
def verify_logs_task(log_ids: list[int]) -> None:
    """A part of a batch: one message for many logs, their verdicts committed in groups."""
    verification.verify_logs(log_ids)


@shared_task
def sweep_stuck_logs_task() -> int:
    """Periodic (celery beat): re-queue logs left queued or verifying too long."""
    return sweep.requeue_stuck_logs()


# Reading a 500 MB batch takes minutes: its limit is as long as the broker lets a task run
# unacknowledged before handing it to another worker (CELERY_VISIBILITY_TIMEOUT), less a margin.
READ_BATCH_SECONDS = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] - 120


@shared_task(soft_time_limit=READ_BATCH_SECONDS, time_limit=READ_BATCH_SECONDS + 60)
def read_batch_task(upload_id: int) -> None:
    """A batch stored by the request: split, check, store and queue its logs."""
    from games.services import batch_intake  # it imports these tasks to queue them

    batch_intake.read_batch(upload_id)
