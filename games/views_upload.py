"""Upload pages: send a log or a batch, then watch each log's verdict arrive; game list."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from games.filters import GameFilter
from games.models import Game, GameLog, Source, Upload
from games.permissions import upload_refused
from games.services.intake import IntakeError, submit_batch, submit_log
from tournaments.models import Table

# The status endpoint lists this many logs of an upload (a batch's counts cover them all).
STATUS_LOGS = 200


@login_required
@require_http_methods(["GET", "POST"])
def upload_page(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return render(request, "games/upload.html", {"tables": open_tables()})
    refused = upload_refused(request)
    if refused is not None:
        return refused_page(request, *refused)
    try:
        upload = receive(request)
    except IntakeError as error:
        return refused_page(request, error.message, error.status)
    return redirect(upload)


def receive(request: HttpRequest) -> Upload:
    """Run the submission: a .jsonl file is a batch, a .json file or pasted text one log."""
    file = request.FILES.get("file")
    pasted = request.POST.get("log", "")
    published = request.POST.get("published") == "on"
    table = None
    if request.POST.get("table"):
        table = Table.objects.filter(pk=request.POST["table"], log__isnull=True).first()
        if table is None:
            raise IntakeError("that table does not exist or already has a result")
    options = {"user": request.user, "source": Source.HUMAN, "published": published}
    if file is not None and file.name.lower().endswith((".jsonl", ".ndjson")):
        if file.size > settings.GAMES_MAX_UPLOAD_BYTES:
            raise IntakeError(f"file over {settings.GAMES_MAX_UPLOAD_BYTES} bytes")
        return submit_batch(file, table=table, filename=file.name, **options)
    if file is not None:
        if file.size > settings.GAMES_MAX_LOG_BYTES:
            raise IntakeError(
                f"a single log is at most {settings.GAMES_MAX_LOG_BYTES} bytes; "
                "send many logs as a .jsonl file"
            )
        return submit_log(file.read(), table=table, filename=file.name, **options).upload
    if not pasted.strip():
        raise IntakeError("choose a .json or .jsonl file, or paste a log")
    return submit_log(pasted, table=table, **options).upload


def refused_page(request: HttpRequest, message: str, status: int) -> HttpResponse:
    context = {"error": message, "tables": open_tables(), "pasted": request.POST.get("log", "")}
    return render(request, "games/upload.html", context, status=status)


def open_tables():
    return Table.objects.filter(log__isnull=True).select_related("round__tournament")[:200]


@require_GET
def upload_detail(request: HttpRequest, upload_id: int) -> HttpResponse:
    upload = get_object_or_404(Upload.objects.visible_to(request.user), pk=upload_id)
    return render(request, "games/upload_detail.html", {"upload": upload, **status_of(upload)})


@require_GET
def upload_status(request: HttpRequest, upload_id: int) -> JsonResponse:
    """What the upload page polls: counts per status and the first logs' verdicts."""
    upload = get_object_or_404(Upload.objects.visible_to(request.user), pk=upload_id)
    state = status_of(upload)
    state["logs"] = [
        {
            "id": log.pk,
            "line": log.line,
            "game": log.game_type,
            "status": log.status,
            "error": (log.error or {}).get("text", ""),
            "url": log.get_absolute_url(),
        }
        for log in state["logs"]
    ]
    return JsonResponse(state)


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
    logs = list(upload.logs.order_by("line", "pk")[:STATUS_LOGS])
    return {
        "counts": counts,
        "total": total,
        "finished": finished,
        "done": finished == total,
        "percent": round(100 * finished / total) if total else 100,
        "line_errors": upload.line_errors,
        "duplicates": upload.duplicates,
        "logs": logs,
    }


@login_required
@require_GET
def upload_list(request: HttpRequest) -> HttpResponse:
    uploads = Upload.objects.filter(submitted_by=request.user).annotate(total=Count("logs"))
    page = Paginator(uploads, 50).get_page(request.GET.get("page"))
    return render(request, "games/upload_list.html", {"page": page})


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """Verified games anyone may see, filtered by game, player, tournament, source, date."""
    games = Game.objects.visible_to(request.user).prefetch_related("seats__player")
    filters = GameFilter(request.GET, queryset=games.order_by("-played_at", "-pk"))
    page = Paginator(filters.qs if filters.is_valid() else games.none(), 50).get_page(
        request.GET.get("page")
    )
    return render(request, "games/game_list.html", {"filters": filters, "page": page})
