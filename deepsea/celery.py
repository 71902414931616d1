"""The Celery app. Its configuration is the CELERY_* part of deepsea/settings.py.

Tasks are defined beside the work they wrap (an app's services), take database ids (never
model instances or payloads), and are queued with `delay_on_commit` so a worker never looks
for a row that is not committed yet. Each app's tasks.py only names them for discovery.
"""

import gc
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


# The collector's youngest generation is collected after this many new container objects
# (Python 3.13's default: 2,000).
YOUNG_OBJECTS = 10_000


@signals.worker_init.connect
@signals.worker_process_init.connect
def tune_garbage_collector(**kwargs: Any) -> None:
    """A verification allocates tens of thousands of short-lived dicts and lists (the parsed
    log, its events, its facts), so the collector ran often, and each of its full passes
    walked every object of Django, Celery and the engines loaded at start: a fifth of a
    worker's CPU per log (benchmarks/worker_cost.py, issue 25). What is loaded by now lives
    as long as the worker, so it is frozen out of the collector's walks (gc.freeze; in a
    prefork pool again in each child, for what it loaded since the fork), and young objects
    are collected less often; cycles are still collected. Measured (500 logs, one process):
    the collector's CPU 1.35 ms a log by default, 0.56 frozen, 0.40 frozen with this."""
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
