"""Sending verification tasks once their logs are committed, through a broker outage.

A log is stored as queued before its task is sent. When the broker cannot be reached the
log simply stays queued: the submission still succeeds, and the periodic sweep (sweep.py)
sends it again once the broker is back. The first failed send stops the rest of that
submission's sends, each of which would wait out the same outage (Celery retries a
publish for about 0.6 s).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task
from django.db import transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


class Dispatch:
    """The task sends of one submission."""

    def __init__(self) -> None:
        self.broker_down = False

    def on_commit(self, task: Task, *args: Any) -> None:
        """Send task(*args) once the current transaction commits (at once outside one)."""
        transaction.on_commit(lambda: self.send(task, *args))

    def send(self, task: Task, *args: Any) -> None:
        if self.broker_down:
            return
        try:
            task.delay(*args)
        except OperationalError as error:
            self.broker_down = True
            logger.warning(
                "broker unreachable (%s): %s not sent; its logs stay queued for the sweep",
                error,
                task.name,
            )
