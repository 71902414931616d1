"""Claims on players' names (players.signals) told to the people concerned: a request to
those who may decide it (players.claims), the decision to the account that asked."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.urls import reverse

from notices import services
from notices.models import Kind
from players import claims
from players.signals import claim_decided, claim_requested


@receiver(claim_requested, dispatch_uid="notices.claim_requested")
def tell_deciders(sender: Any, claim: Any, **kwargs: Any) -> None:
    asker = claim.user.get_username()
    for user in claims.deciders(claim):
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
