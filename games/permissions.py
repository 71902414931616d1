"""Who may see and change game logs.

Anyone reads published logs and games; signed-in users upload; a user's unpublished
uploads are seen only by that user (and staff): `visible_to(user)` on the Upload, GameLog
and Game querysets (games/models.py). Only staff delete.
"""

from __future__ import annotations

from rest_framework import permissions, status
from rest_framework.exceptions import APIException
from rest_framework.throttling import UserRateThrottle

from deepsea.outages import CACHE_UNREACHABLE


class StaffDeletes(permissions.BasePermission):
    """DELETE is for staff; with IsAuthenticatedOrReadOnly, everyone reads and signed-in
    users upload (listed apart so the OpenAPI schema shows reads need no credentials)."""

    def has_permission(self, request, view) -> bool:
        return request.method != "DELETE" or bool(request.user and request.user.is_staff)


class UploadThrottle(UserRateThrottle):
    """Uploads per user (or per address), rate in REST_FRAMEWORK's "uploads" setting.

    Used by the API and by the upload page (a plain Django view) alike.
    """

    scope = "uploads"

    def allow_request(self, request, view) -> bool:
        # Uploads are counted in the cache; with it unreachable nothing can be counted, so
        # refuse cleanly rather than accept unthrottled (or fail with a 500).
        try:
            return super().allow_request(request, view)
        except CACHE_UNREACHABLE as error:
            raise UploadsUnavailable() from error


class UploadsUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = (
        "Uploads are paused: the upload counter's store (Redis) cannot be reached. "
        "Nothing was stored; try again in a minute."
    )
    default_code = "unavailable"
    wait = 60  # seconds; DRF's exception handler sends it as Retry-After


def upload_refused(request) -> tuple[str, int] | None:
    """For the plain Django views that store logs (upload and record pages): the message
    and status refusing this upload now, or None when it may go ahead."""
    try:
        if UploadThrottle().allow_request(request, None):
            return None
    except UploadsUnavailable as error:
        return str(error.detail), error.status_code
    return "Too many uploads; try again in a while.", 429
