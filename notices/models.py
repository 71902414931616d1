"""What the site tells a player (a notice in their inbox) and how each kind reaches them."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    CONFIRM = "confirm", "Games to confirm"
    DISPUTE = "dispute", "Disputes opened"
    DISPUTE_DECIDED = "dispute_decided", "Disputes decided"
    CLAIM = "claim", "Claims on names to decide"
    CLAIM_DECIDED = "claim_decided", "Your claims approved or refused"
    SEATED = "seated", "Seated at a tournament table"
    ANALYSIS = "analysis", "Analyses finished"


class Delivery(models.TextChoices):
    OFF = "off", "Only in the inbox"
    IMMEDIATELY = "immediately", "By e-mail at once"
    DIGEST = "digest", "In a daily e-mail digest"


# Until a player says otherwise: what asks something of them comes at once; an analysis
# finished waits for the day's digest.
DEFAULT_DELIVERY = {kind: Delivery.IMMEDIATELY for kind in Kind} | {Kind.ANALYSIS: Delivery.DIGEST}


class Notice(models.Model):
    """One thing told to one user: a line, a few more, and the page it is about."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    subject = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=500, help_text="The page the notice is about (a path).")
    created = models.DateTimeField(db_index=True)
    # When what it asks falls due (a pending game counts anyway then): the inbox shows the
    # time left as it shrinks.
    due_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # The user's preference for its kind when it was sent, and when its e-mail left.
    delivery = models.CharField(max_length=12, choices=Delivery.choices)
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["user", "read_at"], name="notices_unread"),
            models.Index(fields=["delivery", "mailed_at"], name="notices_to_mail"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} (to {self.user})"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


class Preference(models.Model):
    """How one kind of notice reaches one user besides the inbox; no row: DEFAULT_DELIVERY."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="notice_preferences"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    delivery = models.CharField(max_length=12, choices=Delivery.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_preference_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.kind} {self.delivery}"
