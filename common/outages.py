"""What the services raise when they are down, for code that degrades or waits instead of
failing.

CACHE_UNREACHABLE: Django's Redis cache (redis-py's errors): cached fragments render uncached
(common/cache.py), uploads are refused with a 503 (games/permissions.py).

DATABASE_UNREACHABLE: the database refused or dropped the connection (or the statement:
deadlocks and serialization failures are OperationalErrors too): pages and the API answer
503 with Retry-After (common/middleware.py).

INFRASTRUCTURE_ERRORS: everything a task may meet that is no fault of its input: tasks retry
after these with backoff (games/tasks.py) instead of recording a verdict.
"""

import redis
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerUnreachable

CACHE_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
DATABASE_UNREACHABLE = (OperationalError, InterfaceError)
INFRASTRUCTURE_ERRORS = (*DATABASE_UNREACHABLE, BrokerUnreachable, *CACHE_UNREACHABLE)
# Seconds a client is told to wait (Retry-After) while the database is unreachable.
RETRY_AFTER_SECONDS = 15
