"""Who may decide a claim on a player name: the one place that says it.

A claim request (accounts.models.ClaimRequest: an account asking for a name with a history)
is decided by staff holding the claim permission, or by an organiser of a tournament the name
played in; never by the account asking, whatever else it may do (an organiser or a superuser
asking for a name is decided by someone else). The accounts app (the claims page, the admin,
approving and refusing), the notices (who hears of a request) and the organiser's desk (which
names it tags "claim to decide") all ask here.

players is the bottom app: the claim requests and the tournaments live in apps above it, so
they are reached through their relations' names (Player.claim_requests, a tournament's
registrations and rounds, the user's organised_tournaments...), never imported; a claim is
anything with `user_id` and `player`.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
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


# How a name plays in a tournament, as relation paths from the tournament to the player:
# entered, seated at a table, or in the game attached to a table. Said once, read from both
# ends: the tournaments a name played in (played_in, accounts' list) and the names a
# tournament's organiser may vouch for (names_organised_by). One subquery a path: joined
# together, the three many-valued paths would multiply each other's rows.
PLAYED_IN = (
    "registrations__player",
    "rounds__tables__seats__player",
    "rounds__tables__log__game__seats__player",
)
# From an account to the tournaments it organises (tournaments.Tournament.organisers).
ORGANISED = "organised_tournaments__"


def played_in(rows: QuerySet, player: Any, via: str = "") -> Q:
    """A filter on `rows`' model: the rows that reach a tournament `player` played in along
    `via` (the tournaments themselves with via "", their organisers with ORGANISED)."""
    return reduce(
        or_, (Q(pk__in=rows.filter(**{via + path: player}).values("pk")) for path in PLAYED_IN)
    )


def names_organised_by(user: Any) -> QuerySet[Player]:
    """The names that played in a tournament `user` organises (as pks, to filter by)."""
    organiser = get_user_model().objects.filter(pk=user.pk)
    names = reduce(or_, (Q(pk__in=organiser.values(ORGANISED + path)) for path in PLAYED_IN))
    return Player.objects.filter(names).values("pk")


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
    """The accounts that may decide `claim` (told of it when it is made): may_decide as one
    query, however many organisers there are."""
    app_label, codename = DECIDE_PERMISSION.split(".")
    permission = Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    users = get_user_model().objects.all()
    return list(
        users.filter(
            Q(is_superuser=True)
            | Q(pk__in=users.filter(user_permissions__in=permission).values("pk"))
            | Q(pk__in=users.filter(groups__permissions__in=permission).values("pk"))
            | played_in(users, claim.player, via=ORGANISED),
            is_active=True,
        )
        .exclude(pk=claim.user_id)
        .order_by("pk")
    )


def names_to_decide(user: Any, players: QuerySet[Player]) -> set[int]:
    """Of `players`, the pks of those with an open claim that `user` may decide (the desk's
    "claim to decide" tag): one query, however many claims wait. The open claims are a
    subquery: "decided_at is null" on the join alone also matches every name nobody asked
    for (the outer join's empty row)."""
    if not signed_in(user):
        return set()
    claims = Player._meta.get_field("claim_requests").related_model.objects
    waiting = players.filter(
        pk__in=claims.filter(decided_at__isnull=True).exclude(user=user).values("player")
    )
    if not decides_every_claim(user):
        waiting = waiting.filter(pk__in=names_organised_by(user))
    return set(waiting.values_list("pk", flat=True))
