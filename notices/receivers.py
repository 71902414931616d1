"""Claims on players' names (players.signals) told to the people concerned: a request to
those who may decide it, the decision to the account that asked."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.dispatch import receiver
from django.urls import reverse

from notices import services
from notices.models import Kind
from players.signals import claim_decided, claim_requested


def deciders(player: Any) -> Any:
    """Who may approve a claim on `player`: superusers, staff who organise no tournament (the
    site's moderators), and the organisers of a tournament the name played in; not the
    organisers of other tournaments (reached by the relation's name, not an import)."""
    return (
        get_user_model()
        .objects.filter(
            Q(is_superuser=True)
            | Q(is_staff=True, organised_tournaments__isnull=True)
            | Q(organised_tournaments__registrations__player=player),
            is_active=True,
        )
        .distinct()
    )


@receiver(claim_requested, dispatch_uid="notices.claim_requested")
def tell_deciders(sender: Any, claim: Any, **kwargs: Any) -> None:
    asker = claim.user.get_username()
    for user in deciders(claim.player):
        if user.pk == claim.user_id:
            continue
        services.notify(
            user,
            Kind.CLAIM,
            f"{asker} asks to claim the name {claim.player.display_name}",
            f"The account {asker} asks to play as {claim.player.display_name}, a name with "
            "games on record. Approve or refuse the request in the admin.",
            url=claim.player.get_absolute_url(),
        )


@receiver(claim_decided, dispatch_uid="notices.claim_decided")
def tell_claimant(sender: Any, claim: Any, approved: bool, decided_by: Any, **kwargs: Any) -> None:
    name = claim.player.display_name
    if approved:
        subject = f"Your claim on the name {name} was approved"
        body = f"You play as {name} from now on; its games, ratings and tournaments are yours."
    else:
        subject = f"Your claim on the name {name} was refused"
        body = f"{decided_by.get_username()} refused your claim on {name}."
    services.notify(claim.user, Kind.CLAIM_DECIDED, subject, body, url=reverse("accounts:player"))
