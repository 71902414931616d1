"""The player page of one's account: claim a player name, or see the one claimed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts import services


@login_required
def player(request: HttpRequest) -> HttpResponse:
    mine = getattr(request.user, "player", None)
    error = None
    if request.method == "POST":
        try:
            claimed = services.claim(request.user, request.POST.get("name", ""))
        except services.ClaimRefused as refused:
            error = refused.message
        else:
            messages.success(request, f"You play as {claimed.display_name} now.")
            return redirect("accounts:player")
    context = {
        "mine": mine,
        "error": error,
        "name": request.POST.get("name", ""),
        "unclaimed": [] if mine else services.unclaimed_names(),
    }
    return render(request, "accounts/player.html", context, status=400 if error else 200)
