"""Who may see and change game logs.

Anyone reads published logs and games; signed-in users upload; a user's unpublished
uploads are seen only by that user (and staff): `visible_to(user)` on the Upload, GameLog
and Game querysets (games/models.py). Only staff delete.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rest_framework import permissions, status
from rest_framework.exceptions import APIException
from rest_framework.throttling import UserRateThrottle

from common.outages import CACHE_UNREACHABLE


class StaffDeletes(permissions.BasePermission):
    """DELETE is for staff; with IsAuthenticatedOrReadOnly, everyone reads and signed-in
    users upload (listed apart so the OpenAPI schema shows reads need no credentials)."""

    def has_permission(self, request, view) -> bool:
        return request.method != "DELETE" or bool(request.user and request.user.is_staff)


class UploadThrottle(UserRateThrottle):
    """Logs uploaded per user (or per address), rate in REST_FRAMEWORK's "uploads" setting.

    A batch counts as its number of logs, not as one request, so one request of 10,000 logs
    cannot slip under a limit of 600 an hour. The history is a list of (time, logs) pairs.
    Used by the API and by the upload page (a plain Django view) alike.
    """

    scope = "uploads"
    cache_format = "throttle_%(scope)s_logs_%(ident)s"

    def allow_request(self, request, view, logs: int = 1) -> bool:
        # Uploads are counted in the cache; with it unreachable nothing can be counted, so
        # refuse cleanly rather than accept unthrottled (or fail with a 500).
        try:
            return self.allow_logs(request, view, logs)
        except CACHE_UNREACHABLE as error:
            raise UploadsUnavailable() from error

    def allow_logs(self, request, view, logs: int) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        self.history = [
            (when, count)
            for when, count in self.cache.get(self.key, [])
            if when > self.now - self.duration
        ]
        self.asked = logs
        if sum(count for _, count in self.history) + logs > self.num_requests:
            return False
        self.history.insert(0, (self.now, logs))
        self.cache.set(self.key, self.history, self.duration)
        return True

    def wait(self) -> float | None:
        """Seconds until enough of the oldest uploads fall out of the hour to make room
        (None when the request alone is over the limit: waiting cannot help)."""
        if self.asked > self.num_requests:
            return None
        room = self.num_requests - sum(count for _, count in self.history)
        for when, count in reversed(self.history):  # oldest first
            room += count
            if room >= self.asked:
                return max(0.0, self.duration - (self.now - when))
        return float(self.duration)


class UploadsUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = (
        "Uploads are paused: the upload counter's store (Redis) cannot be reached. "
        "Nothing was stored; try again in a minute."
    )
    default_code = "unavailable"
    wait = 60  # seconds; DRF's exception handler sends it as Retry-After


@dataclass
class Refusal:
    message: str
    status: int
    retry_after: int | None = None  # seconds, for the Retry-After header


def upload_refusal(request, logs: int = 1) -> Refusal | None:
    """For the plain Django views that store logs (upload and record pages): why this upload
    of `logs` logs is refused now, or None when it may go ahead."""
    throttle = UploadThrottle()
    try:
        if throttle.allow_request(request, None, logs):
            return None
    except UploadsUnavailable as error:
        return Refusal(str(error.detail), error.status_code, error.wait)
    wait = throttle.wait()
    if wait is None:
        return Refusal(
            f"{logs} logs are more than the {throttle.num_requests} an hour anyone may upload; "
            "split the batch",
            429,
        )
    seconds = math.ceil(wait)
    return Refusal(f"Too many uploads; try again in {seconds} seconds.", 429, seconds)


def upload_refused(request) -> tuple[str, int] | None:
    """upload_refusal for one log, as (message, status)."""
    refusal = upload_refusal(request)
    return None if refusal is None else (refusal.message, refusal.status)
