"""What Django's Redis cache raises when its server is down or too slow (redis-py's
errors), for code that degrades instead of failing: cached fragments render uncached
(deepsea/cache.py), uploads are refused with a 503 (games/permissions.py)."""

import redis

CACHE_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
