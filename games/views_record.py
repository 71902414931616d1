"""The Record page: a scorekeeper records a game at a physical table, step by step.

The page posts the log so far as JSON; every answer comes from replaying it with the
engine (games/services/record_steps.py). A wrong log gets a 400 with the engine's error,
never a 500.

Tournament tables: the page offers the open tables the user may record, as the table desk
(games.services.table_desk, registered by tournaments) lists them; choosing one fixes the game,
the ruleset, the players in seat order and the opening bidder (DV-3) from the seating, and
the saved log goes to the desk, which checks it against the seating and makes it the
table's result. A table's deal keeps the seating's opening bidder and draws only what is
still chance, and every step is checked against the seating, so a contradiction is refused
at the first step rather than at Save.

Nothing recorded is lost: the recording so far is kept on the server for its recorder
(games.services.drafts) as well as in the browser; a refused save keeps it with the
reason; it goes only when its game is stored or its recorder discards it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from engines.core.errors import LogError
from engines.core.log import dumps, loads
from games import viewer
from games.models import GameLog, Source
from games.permissions import upload_refused
from games.services import drafts, record_steps
from games.services.intake import IntakeError, submit_log
from games.services.table_desk import table_desk


def signed_in_json(view: Callable[[HttpRequest], JsonResponse]) -> Callable:
    """Anonymous requests get a JSON 403 rather than a redirect to the login page."""

    def wrapped(request: HttpRequest, **kwargs: Any) -> JsonResponse:
        if not request.user.is_authenticated:
            return JsonResponse({"error": {"text": "sign in to record games"}}, status=403)
        return view(request, **kwargs)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def log_error(error: LogError, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": error.to_dict()}, status=status)


def refusal(text: str, status: int) -> JsonResponse:
    return JsonResponse(
        {"error": {"kind": "invalid", "message": text, "text": text}}, status=status
    )


def posted_json(request: HttpRequest) -> Any:
    """The request body, parsed as safely as an uploaded log (raises MalformedLogError)."""
    return loads(request.body)


# --- the views -----------------------------------------------------------------------


@require_GET
@login_required
def record_page(request: HttpRequest) -> HttpResponse:
    context = {
        "catalogue": record_steps.catalogue(),
        "tables": table_desk().recordable(request.user),
        "drafts": drafts.listed_drafts(request.user),
    }
    return render(request, "games/record.html", context)


def body_and_seating(request: HttpRequest) -> tuple[Any, dict[str, Any] | None]:
    """The posted log, and the seating of the table it names (`table`), if any."""
    body = posted_json(request)
    if isinstance(body, dict) and "table" in body:
        return body, table_desk().seating(body.pop("table"), request.user)
    return body, None


@require_POST
@signed_in_json
def record_step(request: HttpRequest) -> JsonResponse:
    """The state after the posted events, whose decision is next and the legal choices.
    With `table`, the log is also checked against that table's seating."""
    try:
        body, seating = body_and_seating(request)
        return JsonResponse(record_steps.next_step(body, seating))
    except LogError as error:
        return log_error(error)
    except IntakeError as error:
        return JsonResponse({"error": error.error}, status=error.status)


@require_POST
@signed_in_json
def record_deal(request: HttpRequest) -> JsonResponse:
    """A random setup ("deal randomly") for the posted game, ruleset and players; with
    `table`, the seating's opening bidder is kept and only the rest is drawn (DV-3)."""
    try:
        body, seating = body_and_seating(request)
        return JsonResponse({"setup": record_steps.deal(body, seating)})
    except LogError as error:
        return log_error(error)
    except IntakeError as error:
        return JsonResponse({"error": error.error}, status=error.status)


@require_POST
@signed_in_json
def draft_keep(request: HttpRequest) -> JsonResponse:
    """Keep the recording so far ({key, base, steps}) on the server for its recorder."""
    try:
        draft = drafts.keep_draft(request.user, posted_json(request))
    except LogError as error:
        return log_error(error)
    except IntakeError as error:
        return JsonResponse({"error": error.error}, status=error.status)
    return JsonResponse({"key": draft.key, "updated_at": draft.updated_at.isoformat()})


@require_GET
@signed_in_json
def draft_detail(request: HttpRequest, key: str) -> JsonResponse:
    """One of the recorder's own recordings, whole, to resume it."""
    draft = drafts.drafts_of(request.user).filter(key=key).first()
    if draft is None:
        return refusal(f"you have no unfinished recording {key}", 404)
    return JsonResponse(draft.full())


@require_POST
@signed_in_json
def draft_discard(request: HttpRequest, key: str) -> JsonResponse:
    """The recorder discards one of their recordings."""
    return JsonResponse({"discarded": drafts.forget_draft(request.user, key)})


@require_POST
@signed_in_json
def record_save(request: HttpRequest) -> JsonResponse:
    """Store a finished recording like any upload; it is then verified by a worker.
    With `table`, it is submitted as that tournament table's result. With `draft` (the
    recording's key), a refusal is kept on the recording and a stored game removes it."""
    refused = upload_refused(request)
    if refused is not None:
        return refusal(*refused)
    try:
        body = posted_json(request)
    except LogError as error:
        return log_error(error)
    table = None
    draft = body.pop("draft", None) if isinstance(body, dict) else None
    try:
        if isinstance(body, dict) and "table" in body:
            table = body.pop("table")
            table_desk().check(table, request.user)
        log, _ = record_steps.finished_log(body)
        log["meta"] = {**(log.get("meta") or {}), "recorded_at": timezone.now().isoformat()}
        stored = save(log, table, request.user)
    except LogError as error:
        words = viewer.error_in_words(record_steps.recorded_log(body), error.to_dict())
        refused = {**error.to_dict(), "words": words}
        drafts.note_refusal(request.user, draft, refused)
        return JsonResponse({"error": refused}, status=400)
    except IntakeError as error:
        drafts.note_refusal(request.user, draft, error.error)
        return JsonResponse({"error": error.error}, status=error.status)
    drafts.forget_draft(request.user, draft)
    url = stored.get_absolute_url()
    response = JsonResponse({"log": stored.pk, "url": url}, status=201)
    response["Location"] = url
    return response


def save(log: dict[str, Any], table: Any, user: Any) -> GameLog:
    """Submit the finished log; for a table, through the table desk's seating checks."""
    if table is None:
        return submit_log(
            dumps(log), user=user, source=Source.HUMAN, filename="recorded at a table"
        )
    return table_desk().attach(table, dumps(log), user=user, filename="")
