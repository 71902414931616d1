"""The Celery app. Its configuration is the CELERY_* part of deepsea/settings.py.

Tasks live in each app's tasks.py, take database ids (never model instances or payloads),
call a service function that does the work, and are queued with `delay_on_commit` so a
worker never looks for a row that is not committed yet.
"""

import os
import random

from celery import Celery, Task

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")

app = Celery("deepsea")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

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
