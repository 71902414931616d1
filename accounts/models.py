"""Requests to claim a player name that has a history.

A name nobody played under yet is claimed at once (accounts.services.claim). A name with
verified games, ratings or tournament entries is somebody's record: an account asks for it,
and staff (with the "change claim request" permission) or an organiser of a tournament that
name played in approve or refuse. Meanwhile the account plays under a name of its own (the
`interim`), whose games join the claimed name on approval.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ClaimRequest(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="claim_requests"
    )
    player = models.ForeignKey(
        "players.Player",
        models.CASCADE,
        related_name="claim_requests",
        help_text="The name asked for.",
    )
    interim = models.ForeignKey(
        "players.Player",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The name the account plays under until the request is decided (merged "
        "into the claimed name on approval).",
    )
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    approved = models.BooleanField(null=True, blank=True, help_text="None while undecided.")
    note = models.TextField(blank=True, help_text="Why it was approved or refused.")

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(decided_at__isnull=True),
                name="one_open_claim_per_account",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks for {self.player}"

    @property
    def is_open(self) -> bool:
        return self.decided_at is None

    @property
    def outcome(self) -> str:
        if self.is_open:
            return "waiting for approval"
        return "approved" if self.approved else "refused"
