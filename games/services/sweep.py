"""The safety net behind late acknowledgement: re-queue logs nobody is verifying.

A worker killed mid-task normally hands its task back to the broker; if the message is
lost anyway (broker restart, purged queue), the log would stay queued or verifying for
ever. Celery beat runs this every few minutes (deepsea/settings.py, CELERY_BEAT_SCHEDULE).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import GameLog

logger = logging.getLogger(__name__)


def requeue_stuck_logs(older_than: timedelta | None = None) -> int:
    """Queue again every log left queued or verifying for longer than `older_than`
    (GAMES_STUCK_AFTER_SECONDS by default); returns how many. Their attempts counter
    still stops a log that keeps killing workers."""
    from games.tasks import verify_log_task

    if older_than is None:
        older_than = timedelta(seconds=settings.GAMES_STUCK_AFTER_SECONDS)
    cutoff = timezone.now() - older_than
    with transaction.atomic():
        stuck = list(
            GameLog.objects.select_for_update(skip_locked=True)
            .filter(
                status__in=[GameLog.Status.QUEUED, GameLog.Status.VERIFYING],
                status_changed__lt=cutoff,
            )
            .values_list("pk", flat=True)
        )
        # Stamped now, so the next sweep leaves them alone while they wait in the queue.
        GameLog.objects.filter(pk__in=stuck).update(
            status=GameLog.Status.QUEUED, status_changed=timezone.now()
        )
        for log_id in stuck:
            verify_log_task.delay_on_commit(log_id)
    if stuck:
        logger.warning("re-queued %s stuck logs", len(stuck))
    return len(stuck)
