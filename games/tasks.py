"""Celery tasks: thin wrappers taking ids; the work is in games/services/.

A database, broker or cache error is no fault of the logs: the task retries with backoff
(common.outages.retry_after_outage), resuming what it had claimed, instead of being
acknowledged as done with its logs left verifying.
"""

from celery import Task, shared_task
from django.conf import settings

from common.outages import INFRASTRUCTURE_ERRORS, retry_after_outage
from games.services import sweep, verification


@shared_task(bind=True)
def verify_log_task(self: Task, log_id: int, resume: bool = False) -> None:
    try:
        verification.verify_log(log_id, holder=self.request.id, resume=resume)
    except INFRASTRUCTURE_ERRORS as error:
        raise retry_after_outage(self, error, resume=True) from error


@shared_task(bind=True)
def verify_logs_task(self: Task, log_ids: list[int], resume: bool = False) -> None:
    """A part of a batch: one message for many logs, their verdicts committed in groups."""
    try:
        verification.verify_logs(log_ids, holder=self.request.id, resume=resume)
    except INFRASTRUCTURE_ERRORS as error:
        raise retry_after_outage(self, error, resume=True) from error


@shared_task
def sweep_stuck_logs_task() -> int:
    """Periodic (celery beat): re-queue logs whose lease expired or whose message was lost."""
    return sweep.requeue_stuck_logs()


# Reading a 500 MB batch takes minutes: its limit is as long as the broker lets a task run
# unacknowledged before handing it to another worker (CELERY_VISIBILITY_TIMEOUT), less a margin.
READ_BATCH_SECONDS = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] - 120


@shared_task(soft_time_limit=READ_BATCH_SECONDS, time_limit=READ_BATCH_SECONDS + 60)
def read_batch_task(upload_id: int) -> None:
    """A batch stored by the request: split, check, store and queue its logs."""
    from games.services import batch_intake  # it imports these tasks to queue them

    batch_intake.read_batch(upload_id)
