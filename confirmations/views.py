"""Pages: what waits for a player, and the confirm / dispute forms (signed in, or at the
table with a player's own password)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import authenticate
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from confirmations import notify, services


def back(request: HttpRequest, log_id: int) -> HttpResponseRedirect:
    """To the page the form was on (`next`), else the game's page."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("games:log", args=[log_id])
    return HttpResponseRedirect(target)


def answered(request: HttpRequest, log_id: int, action, *args, **kwargs) -> HttpResponse:
    """Run one answer. A refusal is a page naming the problem, with its 4xx status; nothing
    was stored."""
    try:
        confirmation = action(log_id, *args, **kwargs)
    except services.ConfirmationError as error:
        context = {"error": error, "log_id": log_id}
        return render(request, "confirmations/refused.html", context, status=error.status)
    game = notify.described([confirmation.review_id])[confirmation.review_id]
    name = confirmation.player.display_name
    if confirmation.answer == "confirmed":
        messages.success(request, f"{name} confirmed {game.name}.")
    else:
        messages.success(request, f"{name} disputed {game.name}. Staff decide it now.")
    return back(request, log_id)


@require_GET
@login_required
def pending(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "confirmations/pending.html",
        {
            "waiting": services.pending_list(request.user),
            "answers": services.recent_answers(request.user),
        },
    )


@require_POST
@login_required
def confirm(request: HttpRequest, log_id: int) -> HttpResponse:
    return answered(request, log_id, services.confirm, request.user)


@require_POST
@login_required
def dispute(request: HttpRequest, log_id: int) -> HttpResponse:
    return answered(
        request,
        log_id,
        services.dispute,
        request.user,
        request.POST.get("event"),
        request.POST.get("reason"),
    )


@require_POST
@login_required
def at_table(request: HttpRequest, log_id: int) -> HttpResponse:
    """A player at the table answers on the recording device with their own username and
    password: checked by the normal backends (django-axes counts failures), the device's
    session is left as it was."""
    username = request.POST.get("username", "")
    user = authenticate(request, username=username, password=request.POST.get("password", ""))
    if user is None:
        if getattr(request, "axes_locked_out", False):
            return HttpResponse(status=429)  # AxesMiddleware answers with its lockout page
        messages.error(request, f"Wrong username or password for {username[:40]!r}.")
        return back(request, log_id)
    if request.POST.get("answer") == "dispute":
        return answered(
            request,
            log_id,
            services.dispute,
            user,
            request.POST.get("event"),
            request.POST.get("reason"),
            at_table=True,
        )
    return answered(request, log_id, services.confirm, user, at_table=True)
