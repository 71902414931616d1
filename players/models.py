"""The people who play."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from players import names


class Player(models.Model):
    """Someone who sits at a table. A site account is optional: most players never log in."""

    handle = models.SlugField(
        max_length=names.HANDLE_LENGTH,
        unique=True,
        help_text="Short unique name used in URLs and game logs.",
    )
    display_name = models.CharField(max_length=names.NAME_LENGTH, help_text="The name as written.")
    canonical_name = models.CharField(
        max_length=names.NAME_LENGTH,
        unique=True,
        editable=False,
        help_text="What names are matched on (players.names.canonical_name): NFKC, "
        "case-folded, trimmed. Set from the display name when the player is created.",
    )
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

    def save(self, *args, **kwargs) -> None:
        if not self.canonical_name:
            self.canonical_name = names.canonical_name(self.display_name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("players:detail", args=[self.handle])

    def clean(self) -> None:
        """A name that could pass for another player's, or is one, cannot be saved (the
        admin's forms come here)."""
        problem = names.name_problem(self.display_name)
        if problem:
            raise ValidationError({"display_name": problem})
        canonical = names.canonical_name(self.display_name)
        if not self.canonical_name or self.pk is None:
            self.canonical_name = canonical
        same = Player.objects.filter(canonical_name=self.canonical_name).exclude(pk=self.pk)
        if same.exists():
            raise ValidationError(
                {
                    "display_name": f"{same.first()} already has this name (names are matched "
                    "ignoring case, width and surrounding spaces)"
                }
            )
