"""A database outage answers 503 with Retry-After, never a 500.

While PostgreSQL is down or restarting, every request that touches it fails with a
connection error. That is no bug of the page and no fault of the client: the answer is
503 Service Unavailable with `Retry-After`, as JSON for the API and as the site's page for
everything else. The middleware catches it in views; `server_error` (handler500,
deepsea/urls.py) catches it where it escapes a view (a session saved by the middleware).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults

from common.outages import DATABASE_UNREACHABLE, RETRY_AFTER_SECONDS

MESSAGE = "The database is unreachable for a moment; nothing was changed. Try again shortly."


class DatabaseOutageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_UNREACHABLE):
            return outage_response(request)
        return None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a database outage is a 503 here too; anything else Django's own 500."""
    if isinstance(sys.exc_info()[1], DATABASE_UNREACHABLE):
        return outage_response(request)
    return defaults.server_error(request)


def outage_response(request: HttpRequest) -> HttpResponse:
    if wants_json(request):
        response: HttpResponse = JsonResponse(
            {"detail": MESSAGE, "retry_after": RETRY_AFTER_SECONDS}, status=503
        )
    else:
        # Rendered without the request: its context processors (the signed-in user, read
        # through the session) would go to the database again.
        page = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def wants_json(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return request.path.startswith("/api/") or (
        "application/json" in accept and "text/html" not in accept
    )
