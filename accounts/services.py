"""One player identity per user: a signed-in user claims the player name they play under.

`Player.user` is a one-to-one field, so a user has at most one player and a player at most
one user (the database refuses a second). Claiming only ever fills an empty `user`: a name
claimed by someone else stays theirs; staff reassign it in the admin (or merge duplicates).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from players.models import Player
from players.names import name_problem
from players.services import players_for


class ClaimRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def claim(user: Any, name: str) -> Player:
    """Make the player this name stands for (created when new) `user`'s player."""
    name = name.strip()
    if not name:
        raise ClaimRefused("name: write the name you play under")
    if problem := name_problem(name):
        raise ClaimRefused(f"name: {problem}")
    mine = Player.objects.filter(user=user).first()
    if mine is not None:
        raise ClaimRefused(
            f"you play as {mine.display_name} (@{mine.handle}) already; staff can reassign a name"
        )
    player = players_for([name])[name]
    try:
        with transaction.atomic():
            taken = not Player.objects.filter(pk=player.pk, user__isnull=True).update(user=user)
    except IntegrityError:  # this user claimed another name meanwhile (Player.user is unique)
        raise ClaimRefused("you claimed another name meanwhile") from None
    if taken:
        raise ClaimRefused(
            f"{player.display_name} (@{player.handle}) is claimed by another account; if that "
            "name is yours, ask staff to reassign it"
        )
    player.user = user
    return player


def unclaimed_names(limit: int = 500) -> list[str]:
    """Names a new user may pick from (the most recent players first)."""
    return list(
        Player.objects.filter(user__isnull=True)
        .order_by("-created")
        .values_list("display_name", flat=True)[:limit]
    )
