"""The Celery app. Its configuration is the CELERY_* part of deepsea/settings.py.

Tasks live in each app's tasks.py, take database ids (never model instances or payloads),
call a service function that does the work, and are queued with `delay_on_commit` so a
worker never looks for a row that is not committed yet.
"""

import os
import random
from typing import Any

from celery import Celery, Task, signals
from celery.fixups.django import DjangoFixup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")

app = Celery("deepsea")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Tasks whose result someone is waiting for: a single log's verification (the batches' parts
# are verify_logs_task). Their queue is served first (deepsea/settings.py, CELERY_TASK_QUEUES).
INTERACTIVE_TASKS = frozenset({"games.tasks.verify_log_task"})


def route_task(name: str, args: Any, kwargs: Any, options: Any, **rest: Any) -> dict | None:
    """Celery router: interactive tasks to the interactive queue, read when the task is sent
    (so tests can point it at a queue of their own); None lets the next route decide."""
    if name in INTERACTIVE_TASKS:
        return {"queue": app.conf.interactive_queue}
    return None


@signals.worker_init.connect
def keep_database_connections(**kwargs: Any) -> None:
    """Celery's Django fixup closes the database connection before and after every task, so
    a worker opened one per task (over a hundred per 10,000 logs) whatever CONN_MAX_AGE said.
    Instead, as Django does around a request, drop only a connection that is past
    CONN_MAX_AGE or broken (a failed health check); the fixup still closes the connection a
    pool process inherits from its parent. Runs after the fixup's own worker_init."""
    from django.db import close_old_connections

    for fixup in app._fixups:
        if isinstance(fixup, DjangoFixup):
            fixup.worker_fixup.close_database = close_old_connections


# Retries after an outage: 1, 2, 4, 8 then every 15 s (with jitter, so workers that failed
# together do not all come back at once), for about 10 minutes; then the task fails and the
# sweep (games/services/sweep.py) picks its logs up once their lease expires.
RETRY_FIRST_SECONDS = 1
RETRY_LONGEST_SECONDS = 15
RETRY_LIMIT = 45


def retry_after_outage(task: Task, error: Exception, **kwargs) -> Exception:
    """task.retry() after a database, broker or cache error, with bounded backoff; `kwargs`
    are added to the retry's. Raise what it returns. Tasks run in-process (no broker) are
    not retried: the error goes to their caller."""
    if task.request.is_eager:
        return error
    countdown = min(RETRY_LONGEST_SECONDS, RETRY_FIRST_SECONDS * 2**task.request.retries)
    return task.retry(
        exc=error,
        countdown=countdown * random.uniform(0.8, 1.0),
        max_retries=RETRY_LIMIT,
        kwargs={**(task.request.kwargs or {}), **kwargs},
    )
