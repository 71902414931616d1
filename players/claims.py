"""Who may decide a claim on a player name: the one place that says it.

A claim request (accounts.models.ClaimRequest: an account asking for a name with a history)
is decided by staff holding the claim permission, or by an organiser of a tournament the name
played in; never by the account asking, whatever else it may do (an organiser or a superuser
asking for a name is decided by someone else). The accounts app (the claims page, the admin,
approving and refusing), the notices (who hears of a request) and the organiser's desk (which
names it tags "claim to decide") all ask here.

players is the bottom app: the claim requests and the tournaments live in apps above it, so
they are reached through their relations' names (Player.claim_requests, Player.registrations,
the user's organised_tournaments...), never imported; a claim is anything with `user_id` and
`player`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q, QuerySet

from players.models import Player

# The permission of staff who decide every claim ("change claim request" in the admin).
DECIDE_PERMISSION = "accounts.change_claimrequest"


def signed_in(user: Any) -> bool:
    return user.is_authenticated and user.is_active


def decides_every_claim(user: Any) -> bool:
    """Staff (or a superuser) holding the claim permission decide claims on every name."""
    return signed_in(user) and user.has_perm(DECIDE_PERMISSION)


def names_organised_by(user: Any) -> QuerySet[Player]:
    """The names that played in a tournament `user` organises: entered, seated, or at a
    table whose game was attached (as pks, to filter by)."""
    return (
        Player.objects.filter(
            Q(registrations__tournament__organisers=user)
            | Q(table_seats__table__round__tournament__organisers=user)
            | Q(seats__game__log__table__round__tournament__organisers=user)
        )
        .values("pk")
        .distinct()
    )


def may_decide(user: Any, claim: Any) -> bool:
    """Whether `user` may approve or refuse `claim`: not their own request, and either the
    claim permission or an organiser of a tournament the name played in."""
    if not signed_in(user) or claim.user_id == user.pk:
        return False
    if decides_every_claim(user):
        return True
    return names_organised_by(user).filter(pk=claim.player.pk).exists()


def decidable(user: Any, claims: QuerySet) -> QuerySet:
    """The claims of `claims` (a ClaimRequest queryset) that `user` may decide: may_decide
    as a filter."""
    if not signed_in(user):
        return claims.none()
    claims = claims.exclude(user=user)
    if decides_every_claim(user):
        return claims
    return claims.filter(player__in=names_organised_by(user))


def may_see_claims(user: Any) -> bool:
    """The approvers' page (and the admin's list) is for whoever may decide some claim:
    the permission's holders and the organisers of any tournament."""
    return decides_every_claim(user) or (signed_in(user) and user.organised_tournaments.exists())


def deciders(claim: Any) -> list[Any]:
    """The accounts that may decide `claim` (told of it when it is made)."""
    app_label, codename = DECIDE_PERMISSION.split(".")
    permission = Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    candidates = (
        get_user_model()
        .objects.filter(
            Q(is_superuser=True)
            | Q(user_permissions__in=permission)
            | Q(groups__permissions__in=permission)
            | Q(organised_tournaments__isnull=False),
            is_active=True,
        )
        .exclude(pk=claim.user_id)
        .distinct()
        .order_by("pk")
    )
    return [user for user in candidates if may_decide(user, claim)]


def names_to_decide(user: Any, players: QuerySet[Player]) -> set[int]:
    """Of `players`, the pks of those with an open claim that `user` may decide (the desk's
    "claim to decide" tag). Both conditions in one filter(): "decided_at is null" alone also
    matches every name nobody asked for (the outer join's empty row)."""
    waiting = players.filter(
        claim_requests__isnull=False, claim_requests__decided_at__isnull=True
    ).distinct()
    return {
        player.pk
        for player in waiting
        if any(
            may_decide(user, claim)
            for claim in player.claim_requests.filter(decided_at__isnull=True)
        )
    }
