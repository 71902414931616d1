"""What the services raise when they are down, for code that degrades or waits instead of
failing.

CACHE_UNREACHABLE: Django's Redis cache (redis-py's errors): cached fragments render uncached
(common/cache.py), uploads are refused with a 503 (games/permissions.py).

DATABASE_UNREACHABLE: the database refused or dropped the connection (or the statement:
deadlocks and serialization failures are OperationalErrors too): pages and the API answer
503 with Retry-After (common/middleware.py).

INFRASTRUCTURE_ERRORS: everything a task may meet that is no fault of its input: tasks retry
after these with backoff (retry_after_outage) instead of recording a verdict.
"""

import random

import redis
from celery import Task
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerUnreachable

CACHE_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
DATABASE_UNREACHABLE = (OperationalError, InterfaceError)
INFRASTRUCTURE_ERRORS = (*DATABASE_UNREACHABLE, BrokerUnreachable, *CACHE_UNREACHABLE)
# Seconds a client is told to wait (Retry-After) while the database is unreachable.
RETRY_AFTER_SECONDS = 15


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
