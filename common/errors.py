"""Error answers a client can read: JSON under /api/, the site's own page elsewhere.

A client's mistake is a 4xx naming the problem, never a 500: the handlers below replace
Django's plain error pages, and RefuseHostileRequests turns input no view can use (a NUL
byte in the URL, an id too large for the database, a broken multipart body) into a 4xx
before or after the view.
"""

from __future__ import annotations

import sys

from django.db import DataError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.template import loader

from common.middleware import outage_response
from common.outages import DATABASE_UNREACHABLE

TITLES = {
    400: "Bad request",
    403: "Not allowed",
    404: "Not found",
    500: "Server error",
}


def error_response(request: HttpRequest, status: int, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    context = {"status": status, "title": TITLES.get(status, "Error"), "message": message}
    return render(request, f"{status}.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, 400, str(exception or "") or "the request is malformed")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, 403, str(exception or "") or "you may not do this")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, 404, f"nothing at {request.path}")


def server_error(request: HttpRequest) -> HttpResponse:
    if isinstance(sys.exc_info()[1], DATABASE_UNREACHABLE):
        return outage_response(request)
    message = "something went wrong on our side; it has been logged"
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=500)
    # Without the request's context processors: whatever failed (the database, say) must
    # not be needed again to draw this page.
    context = {"status": 500, "title": TITLES[500], "message": message}
    return HttpResponse(loader.render_to_string("500.html", context), status=500)


class RefuseHostileRequests:
    """400 for a NUL byte in the path or query (PostgreSQL refuses NUL in any string, so
    a lookup would fail with a 500); 404 for an id too large for an integer column."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            return error_response(request, 400, "the URL contains a NUL byte (%00)")
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                return error_response(
                    request, 400, f"query parameter {name!r} contains a NUL byte (%00)"
                )
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # An id in the URL or a filter beyond 64 bits: SQLite raises OverflowError,
        # PostgreSQL a DataError ("out of range"). No row can have such an id.
        if isinstance(exception, OverflowError) or (
            isinstance(exception, DataError) and "out of range" in str(exception)
        ):
            return error_response(request, 404, "no such item: a number is out of range")
        # Django answers these itself where it parses a body; some views (drf-spectacular's
        # OPTIONS) let them through.
        if isinstance(exception, MultiPartParserError):
            return error_response(request, 400, f"malformed multipart body: {exception}")
        return None
