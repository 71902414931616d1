"""Upload pages: send a log or a batch, then watch each log's verdict arrive; game list."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.exceptions import NotFound

from games import viewer
from games.filters import GameFilter
from games.list_rows import filter_fields, game_rows
from games.models import BatchState, Game, GameLog, Source, Upload
from games.names import game_name
from games.pagination import GAME_SHOWN, page_of_filtered_games, page_of_games
from games.permissions import Refusal, upload_refusal
from games.services.batch_intake import most_logs_per_batch, start_batch, store_body
from games.services.intake import IntakeError, submit_log
from games.services.table_desk import table_desk

# The page lists this many logs, bad lines and duplicates of an upload (counts cover all).
STATUS_LOGS = 200


class Refused(IntakeError):
    """An upload the throttle refuses now: 429 with Retry-After, or 503."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.status = refusal.status
        self.retry_after = refusal.retry_after


@login_required
@require_http_methods(["GET", "POST"])
def upload_page(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return render(request, "games/upload.html", form_context(request))
    try:
        upload = receive(request)
    except IntakeError as error:
        return refused_page(request, error)
    return redirect(upload)


def receive(request: HttpRequest) -> Upload:
    """Run the submission: a .jsonl file is a batch (stored, then read by a worker), a .json
    file or pasted text one log (stored and queued here); a log for a tournament table goes
    to the table desk, which checks it first."""
    file = request.FILES.get("file")
    pasted = request.POST.get("log", "")
    published = request.POST.get("published") == "on"
    table = table_id(request.POST.get("table", ""))
    options = {"user": request.user, "source": Source.HUMAN, "published": published}
    if file is not None and file.name.lower().endswith((".jsonl", ".ndjson")):
        if file.size > settings.GAMES_MAX_UPLOAD_BYTES:
            raise IntakeError(f"file over {settings.GAMES_MAX_UPLOAD_BYTES} bytes")
        if table is not None:
            raise IntakeError("a table takes a single log, not a batch")
        body = store_body(file, expected=None, max_lines=most_logs_per_batch())
        refusal = upload_refusal(request, body.lines)
        if refusal is not None:
            body.discard()
            raise Refused(refusal)
        return start_batch(body, filename=file.name, **options)
    refusal = upload_refusal(request)
    if refusal is not None:
        raise Refused(refusal)
    if file is not None:
        if file.size > settings.GAMES_MAX_LOG_BYTES:
            raise IntakeError(
                f"a single log is at most {settings.GAMES_MAX_LOG_BYTES} bytes; "
                "send many logs as a .jsonl file"
            )
        raw, filename = file.read(), file.name
    elif pasted.strip():
        raw, filename = pasted, ""
    else:
        raise IntakeError("choose a .json or .jsonl file, or paste a log")
    if table is not None:
        return table_desk().attach(table, raw, user=request.user, filename=filename).upload
    return submit_log(raw, filename=filename, **options).upload


def table_id(posted: str) -> int | None:
    """The table chosen on the form (none when empty); anything but a whole number ("abc",
    "1.5", a NUL) is refused."""
    if not posted.strip():
        return None
    if posted.isascii() and posted.isdigit() and len(posted) <= 18:
        return int(posted)
    raise IntakeError(f"table {posted[:40]!r} is not a table id (a whole number)")


def refused_page(request: HttpRequest, error: IntakeError) -> HttpResponse:
    pasted = request.POST.get("log", "")
    context = form_context(request, error=error.message, pasted=pasted)
    response = render(request, "games/upload.html", context, status=error.status)
    if getattr(error, "retry_after", None):
        response["Retry-After"] = str(error.retry_after)
    return response


def open_tables(request: HttpRequest) -> list[tuple[int, str]]:
    return table_desk().open_tables(request.user)


def form_context(request: HttpRequest, **more: Any) -> dict[str, Any]:
    """The upload form's: the tables a log may be attached to, and the size limit in decimal
    megabytes (filesizeformat's binary units made 1,000,000 bytes read "976.6 KB")."""
    limit = f"{settings.GAMES_MAX_LOG_BYTES / 1_000_000:g} MB"
    return {"tables": open_tables(request), "log_limit": limit, **more}


@require_GET
def upload_detail(request: HttpRequest, upload_id: int) -> HttpResponse:
    upload = get_object_or_404(Upload.objects.visible_to(request.user), pk=upload_id)
    return render(request, "games/upload_detail.html", {"upload": upload, **status_of(upload)})


@require_GET
def upload_status(request: HttpRequest, upload_id: int) -> HttpResponse:
    """The upload page's live part, which it polls (htmx) until the batch is read and every
    log has its verdict."""
    upload = get_object_or_404(Upload.objects.visible_to(request.user), pk=upload_id)
    return render(request, "games/_upload_status.html", {"upload": upload, **status_of(upload)})


def status_of(upload: Upload) -> dict:
    counts = dict.fromkeys(GameLog.Status.values, 0)
    counts.update(
        upload.logs.order_by()
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    total = sum(counts.values())
    finished = total - counts[GameLog.Status.QUEUED] - counts[GameLog.Status.VERIFYING]
    logs = list(
        # "table" (the desk's reverse one-to-one) read along: naming a game at no table
        # then asks nothing more.
        upload.logs.select_related("game", "table")
        .prefetch_related("game__seats")
        .order_by("line", "pk")[:STATUS_LOGS]
    )
    for log in logs:
        game = getattr(log, "game", None)
        log.game_name = game_name(game) if game is not None else ""
        # Whose move was refused, by name; when in the game, on the log's own page (the list
        # is polled every second: it replays no log).
        if log.error:  # only a refused log is read
            log.error_words = viewer.error_in_words(viewer.read_log(log.raw), log.error, when=False)
        else:
            log.error_words = ""
    read = upload.batch_state == BatchState.READ
    return {
        "counts": counts,
        "total": total,
        "finished": finished,
        "read": read,
        "done": read and finished == total,
        "percent": round(100 * finished / total) if total else 100,
        "line_errors": upload.line_errors[:STATUS_LOGS],
        "duplicates": upload.duplicates[:STATUS_LOGS],
        "logs": logs,
    }


@login_required
@require_GET
def upload_list(request: HttpRequest) -> HttpResponse:
    uploads = (
        Upload.objects.filter(submitted_by=request.user)
        .annotate(total=Count("logs"))
        .order_by("-created", "-pk")
    )
    page = Paginator(uploads, 50).get_page(request.GET.get("page"))
    return render(request, "games/upload_list.html", {"page": page})


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """Verified games anyone may see, filtered by game, player, tournament, source, date;
    newest first, a page at a time by keyset (games/pagination.py)."""
    games = Game.objects.visible_to(request.user).only(*GAME_SHOWN)
    filters = GameFilter(request.GET, queryset=games)
    try:
        if filters.is_valid():
            page = page_of_filtered_games(request, filters)
        else:
            page = page_of_games(request, games.none())
    except NotFound:
        raise Http404("not a page of this list: follow its newer and older links") from None
    context = {
        "filters": filters,
        "fields": filter_fields(filters.form),
        "page": page,
        "rows": game_rows(page["games"]),
    }
    return render(request, "games/game_list.html", context)
