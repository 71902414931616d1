"""What the broker holds: the messages waiting in a queue or reserved by a worker.

The sweeps ask it so that they re-send only what is really lost (a broker restarted without
its data, a purged queue, a message reserved by a worker that died before starting it), and
never a message that is merely waiting its turn in a long queue. Only Redis can be asked
(kombu's layout: a list per queue, the reserved messages in the `unacked` hash with their
reservation time in the `unacked_index` sorted set); for any other broker `pending` returns
None and callers fall back on age.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import redis
from celery import current_app as app  # the project's (deepsea/celery.py), once loaded

PAGE = 500


@dataclass(frozen=True)
class Message:
    task: str
    args: list[Any]
    reserved_at: float | None  # when a worker took it (seconds since the epoch), else None

    def reserved_for(self) -> float:
        return 0.0 if self.reserved_at is None else time.time() - self.reserved_at


def pending(queues: Iterable[str]) -> list[Message] | None:
    """The task messages waiting in these queues or reserved by any worker; None when the
    broker cannot be asked (not Redis, or tasks run in-process). Raises redis's errors
    when the broker is down."""
    url = app.conf.broker_url or ""
    if app.conf.task_always_eager or not url.startswith(("redis://", "rediss://")):
        return None
    prefix = (app.conf.broker_transport_options or {}).get("global_keyprefix", "")
    client = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=5)
    try:
        messages = []
        for queue in queues:
            for raw in paged_list(client, prefix + queue):
                messages.extend(decoded(raw, reserved_at=None))
        reserved_at = dict(client.zrange(prefix + "unacked_index", 0, -1, withscores=True))
        for tag, raw in client.hscan_iter(prefix + "unacked", count=PAGE):
            messages.extend(decoded(raw, reserved_at=reserved_at.get(tag, 0.0), reserved=True))
        return messages
    finally:
        client.close()


def paged_list(client: redis.Redis, key: str) -> Iterator[bytes]:
    start = 0
    while page := client.lrange(key, start, start + PAGE - 1):
        yield from page
        start += PAGE


def decoded(raw: bytes, *, reserved_at: float | None, reserved: bool = False) -> list[Message]:
    """The task message in a list entry (or, reserved, an `unacked` entry: [message,
    exchange, routing key]); nothing for what is not a Celery protocol 2 JSON message."""
    try:
        entry = json.loads(raw)
        message = entry[0] if reserved else entry
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return [Message(message["headers"]["task"], list(args), reserved_at)]
    except (ValueError, KeyError, IndexError, TypeError):
        return []
