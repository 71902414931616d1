"""Analysis pages: start a game's analysis, its progress and result, the analysis board and
the Deep Sea Adventure turn-back advisor."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from analysis import advisor
from analysis.models import BoardRequest
from analysis.services import board, jobs
from analysis.services.summary import latest_analysis
from engines.core.errors import LogError
from games.views_game import visible_log


@login_required
@require_POST
def start(request: HttpRequest, log_id: int) -> HttpResponse:
    log = visible_log(request, log_id)
    try:
        jobs.request_analysis(log)
    except jobs.AnalysisRefused as exc:
        return render(request, "analysis/refused.html", {"log": log, "reason": exc}, status=409)
    return redirect(in_the_replay(log_id))


def in_the_replay(log_id: int) -> str:
    return reverse("games:log", args=[log_id]) + "#analysis"


@require_GET
def game(request: HttpRequest, log_id: int) -> HttpResponse:
    """The analysis reads beside its moments: it lives in the game page's replay."""
    visible_log(request, log_id)
    return redirect(in_the_replay(log_id))


@require_GET
def status(request: HttpRequest, log_id: int) -> JsonResponse:
    log = visible_log(request, log_id)
    analysis = latest_analysis(log.pk)
    if analysis is None:
        return JsonResponse({"error": {"text": f"log {log_id} has no analysis"}}, status=404)
    return JsonResponse(analysis.progress())


@require_GET
def progress(request: HttpRequest, log_id: int) -> HttpResponse:
    """The running analysis's progress, which its page polls (htmx); once it has ended, the
    page is asked to reload to show the result (or the failure)."""
    log = visible_log(request, log_id)
    analysis = latest_analysis(log.pk)
    if analysis is None:
        raise Http404(f"log {log_id} has no analysis")
    if analysis.status != analysis.Status.RUNNING:
        return HttpResponseClientRefresh()
    return render(request, "analysis/_progress.html", {"log": log, "analysis": analysis})


@login_required
@require_POST
def board_start(request: HttpRequest, log_id: int) -> JsonResponse:
    log = visible_log(request, log_id)
    asked = request.POST.get("event", "")
    try:
        index = int(asked)
    except ValueError:
        return JsonResponse(
            {"error": {"field": "event", "text": f"event must be an integer, not {asked[:40]!r}"}},
            status=400,
        )
    try:
        job = board.request_board(log, index)
    except (jobs.AnalysisRefused, LogError) as exc:
        return JsonResponse({"error": {"field": "event", "text": str(exc)}}, status=400)
    return JsonResponse(board.progress(job), status=202)


@require_GET
def board_status(request: HttpRequest, log_id: int, board_id: int) -> JsonResponse:
    log = visible_log(request, log_id)
    job = get_object_or_404(BoardRequest, pk=board_id, log=log)
    return JsonResponse(board.progress(job))


@require_GET
def turn_back(request: HttpRequest) -> HttpResponse:
    form = advisor.AdvisorForm(request.GET or None)
    context = {"form": form, "study": advisor.study()}
    if not form.is_bound:
        return render(request, "analysis/turn_back.html", context)
    if not form.is_valid():
        return render(request, "analysis/turn_back.html", context, status=400)
    context["choices"] = advisor.evaluate(form.cleaned_data)
    return render(request, "analysis/turn_back.html", context)


@require_GET
def method(request: HttpRequest) -> HttpResponse:
    """How the analysis is made: the playouts, the marks, the accuracy formula."""
    return render(request, "analysis/method_page.html")
