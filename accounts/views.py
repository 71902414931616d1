"""The player page of one's account (claim a player name, or see the one claimed and the
request waiting), and the approvers' page of claim requests."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts import services
from players.claims import may_see_claims


@login_required
def player(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        try:
            claimed = services.claim(
                request.user, request.POST.get("name", ""), request.POST.get("interim", "")
            )
        except services.ClaimRefused as refused:
            error = refused
        else:
            if claimed.request is None:
                messages.success(request, f"You play as {claimed.player.display_name} now.")
            else:
                messages.info(
                    request,
                    f"{claimed.request.player.display_name} has played before: your claim waits "
                    f"for approval. Meanwhile you play as {claimed.player.display_name}.",
                )
            return redirect("accounts:player")
    context = {
        "mine": getattr(request.user, "player", None),
        "waiting": services.open_request(request.user),
        "decided": request.user.claim_requests.filter(decided_at__isnull=False)
        .select_related("player")
        .order_by("-decided_at")[:5],
        "error": error.message if error else None,
        "name": request.POST.get("name", ""),
        "interim": request.POST.get("interim", ""),
        "approver": may_see_claims(request.user),
    }
    return render(request, "accounts/player.html", context, status=error.status if error else 200)


@require_GET
@login_required
def claims(request: HttpRequest) -> HttpResponse:
    """The requests this user may decide, each with the name's games and tournaments."""
    if not may_see_claims(request.user):
        raise PermissionDenied("only staff and tournament organisers decide claims of names")
    rows = []
    for claim in services.decidable_by(request.user):
        games, latest = services.games_of(claim.player)
        interim_games, interim_latest = services.games_of(claim.interim)
        rows.append(
            {
                "claim": claim,
                "games": games,
                "latest": latest,
                "tournaments": list(services.tournaments_of(claim.player)),
                "interim_games": interim_games,
                "interim_latest": interim_latest,
            }
        )
    return render(request, "accounts/claims.html", {"rows": rows})


@require_POST
def decide(request: HttpRequest, claim_id: int, approve: bool) -> HttpResponse:
    """Approve or refuse; a refusal of the decision is a page naming why, with its 4xx."""
    if not request.user.is_authenticated:
        raise PermissionDenied("sign in to decide claims of names")
    action = services.approve if approve else services.refuse
    try:
        claim = action(claim_id, request.user, request.POST.get("note", ""))
    except services.ClaimRefused as refused:
        return render(
            request, "accounts/refused.html", {"error": refused.message}, status=refused.status
        )
    messages.success(
        request,
        f"{claim.user.get_username()}'s claim of {claim.player.display_name} {claim.outcome}.",
    )
    return redirect("accounts:claims")
