"""The safety net behind late acknowledgement: re-queue the logs that are really stranded.

Celery beat runs this every GAMES_SWEEP_SECONDS (15 s; deepsea/settings.py), in a queue of
its own so that a long queue of verifications never holds it back. Two kinds of stranded log:

- Verifying, lease expired. A worker claiming a log holds a lease on it (GameLog), renewed
  while it works through its chunk; a worker killed, cut off or stuck stops renewing it. The
  logs of each such task are queued again in two halves (`retry_in_halves`), so that only a
  log that dies when verified alone uses up its attempts (a chunk that died with a bad log in
  it does not count against the others), while the others are soon verified together again.
- Queued, message lost. The broker is asked which logs its messages carry (common/broker.py:
  waiting in the queue, or reserved by a worker for less than a lease). A log queued for more
  than a lease that no message carries was never accepted (the broker was down), or the broker
  lost it (a restart without its data, a purge), or the worker that took it died before
  claiming it. A log waiting its turn in a long queue is carried by its message and left alone.
  When the broker cannot be asked (not Redis), a log queued for GAMES_STUCK_AFTER_SECONDS counts
  as lost.

A batch being read can be stranded too (`resend_stranded_batches`): waiting with no message
carrying its reading task, as above, or reading with no position saved for two leases (its
reader saves at least every second while it reads, so its worker died). Its reading task is
sent again; it resumes at the saved position, and a reader racing another stops at its next
save (games/services/batch_intake.py), so no log is stored twice.

Re-sending a log by mistake is harmless, only wasteful: a claim takes only a queued log or an
expired lease, and a verdict is written once, under the log's row lock.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app as app  # the project's (deepsea/celery.py)
from celery import shared_task
from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

from common import broker
from games.models import BatchState, GameLog, Upload
from games.services import verification
from games.services.batch_intake import read_batch_task
from games.services.dispatch import Dispatch
from games.services.verification import verify_logs_task

logger = logging.getLogger(__name__)

VERIFY_TASKS = ("games.tasks.verify_log_task", "games.tasks.verify_logs_task")
READ_TASK = "games.tasks.read_batch_task"
# Logs per message when lost logs are sent again (they were never claimed: no attempt to save).
RESEND_CHUNK = 100


def requeue_stuck_logs(older_than: timedelta | None = None) -> int:
    """Re-queue the logs whose lease expired and the queued logs whose message is lost (for
    longer than `older_than`, a lease by default); returns how many."""
    return requeue_expired_leases() + resend_lost_messages(older_than) + resend_stranded_batches()


def requeue_expired_leases() -> int:
    with transaction.atomic():
        expired = GameLog.objects.lease_expired().select_for_update(skip_locked=True)
        count = verification.retry_in_halves(expired)
    if count:
        logger.warning("re-queued %s logs whose lease expired", count)
    return count


def resend_lost_messages(older_than: timedelta | None = None) -> int:

    if older_than is None:
        older_than = timedelta(seconds=settings.GAMES_LEASE_SECONDS)
    messages = broker.pending(verification_queues())  # before reading the logs: see below
    if messages is None:
        older_than = max(older_than, timedelta(seconds=settings.GAMES_STUCK_AFTER_SECONDS))
    queued = GameLog.objects.filter(
        status=GameLog.Status.QUEUED, status_changed__lt=timezone.now() - older_than
    )
    # A log whose message a worker took between the two reads is claimed by now, so it is
    # not queued any more (or, within milliseconds of that, sent twice: harmless).
    lost = set(queued.values_list("pk", flat=True)) - carried(messages or [])
    if not lost:
        return 0
    dispatch = Dispatch()
    with transaction.atomic():
        resend = sorted(
            queued.select_for_update(skip_locked=True)
            .filter(pk__in=lost)
            .values_list("pk", flat=True)
        )
        GameLog.objects.filter(pk__in=resend).requeue()
        for start in range(0, len(resend), RESEND_CHUNK):
            dispatch.on_commit(verify_logs_task, resend[start : start + RESEND_CHUNK])
    logger.warning("sent again %s queued logs whose message was lost", len(resend))
    return len(resend)


def resend_stranded_batches() -> int:
    """Send the reading task again for batches whose reading stopped; returns how many."""

    lease = timedelta(seconds=settings.GAMES_LEASE_SECONDS)
    messages = broker.pending(verification_queues())
    waited = lease
    if messages is None:  # the broker cannot be asked: wait as long as for a lost log
        waited = timedelta(seconds=settings.GAMES_STUCK_AFTER_SECONDS)
    now = timezone.now()
    on_their_way = {
        message.args[0]
        for message in messages or []
        if message.task == READ_TASK and message.args and message.reserved_for() <= lease.seconds
    }
    dispatch = Dispatch()
    with transaction.atomic():
        stranded = Upload.objects.select_for_update(skip_locked=True).filter(
            models.Q(batch_state=BatchState.WAITING, created__lt=now - waited)
            | models.Q(batch_state=BatchState.READING, batch_progress_at__lt=now - 2 * lease)
        )
        resend = [pk for pk in stranded.values_list("pk", flat=True) if pk not in on_their_way]
        # Moving the clock on gives the new reader two leases before the next sweep looks.
        Upload.objects.filter(pk__in=resend).update(batch_progress_at=now)
        for pk in resend:
            dispatch.on_commit(read_batch_task, pk)
    if resend:
        logger.warning("sent the reading task again for %s stranded batches", len(resend))
    return len(resend)


def carried(messages: list[broker.Message]) -> set[int]:
    """Log ids of the verification messages still on their way to a worker's claim: waiting,
    or reserved for less than a lease (a reserved message is claimed at once; one reserved
    longer was taken by a worker that died)."""
    lease = settings.GAMES_LEASE_SECONDS
    ids: set[int] = set()
    for message in messages:
        if message.task not in VERIFY_TASKS or message.reserved_for() > lease:
            continue
        first = message.args[0] if message.args else None
        ids.update(first if isinstance(first, list) else [first])
    return ids


def verification_queues() -> list[str]:
    """The queues verifications and batch readings wait in: a single log's (served first,
    deepsea/settings.py) and the batches'."""
    return list(dict.fromkeys([app.conf.interactive_queue, app.conf.task_default_queue]))


@shared_task(name="games.tasks.sweep_stuck_logs_task")
def sweep_stuck_logs_task() -> int:
    """Periodic (celery beat): re-queue logs whose lease expired or whose message was lost."""
    return requeue_stuck_logs()
