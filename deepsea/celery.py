"""The Celery app. Its configuration is the CELERY_* part of deepsea/settings.py.

Tasks are defined beside the work they wrap (an app's services), take database ids (never
model instances or payloads), and are queued with `delay_on_commit` so a worker never looks
for a row that is not committed yet. Each app's tasks.py only names them for discovery.
"""

import os
from typing import Any

from celery import Celery, signals
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
