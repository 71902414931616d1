"""The people who play."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Player(models.Model):
    """Someone who sits at a table. A site account is optional: most players never log in."""

    handle = models.SlugField(
        max_length=40, unique=True, help_text="Short unique name used in URLs and game logs."
    )
    display_name = models.CharField(max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created = models.DateTimeField(auto_now_add=True)
    stats_refreshed_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When a worker last recomputed this player's statistics.",
    )

    class Meta:
        ordering = ["display_name", "handle"]

    def __str__(self) -> str:
        return f"{self.display_name} (@{self.handle})"

    def get_absolute_url(self) -> str:
        return reverse("players:detail", args=[self.handle])
