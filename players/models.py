"""The people who play."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone

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
    claimed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Since when `user` plays under this name (set whenever the account changes).",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "handle"]

    def __str__(self) -> str:
        return f"{self.display_name} (@{self.handle})"

    def save(self, *args, **kwargs) -> None:
        if not self.canonical_name:
            self.canonical_name = names.canonical_name(self.display_name)
        self.stamp_claim(kwargs)
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

    def stamp_claim(self, save_kwargs: dict) -> None:
        """Keep `claimed_at` with `user`, however the account was set (a claim, an approved
        request, staff in the admin, a merge)."""
        claimed_at = self.claimed_at
        if self.user_id is None:
            self.claimed_at = None
        elif self.claimed_at is None or self.user_id != getattr(
            self, "_loaded_user_id", self.user_id
        ):
            self.claimed_at = timezone.now()
        fields = save_kwargs.get("update_fields")
        if fields is not None and self.claimed_at != claimed_at:
            save_kwargs["update_fields"] = {*fields, "claimed_at"}
        self._loaded_user_id = self.user_id

    @classmethod
    def from_db(cls, db, field_names, values, *, fetch_mode=None):
        player = super().from_db(db, field_names, values, fetch_mode=fetch_mode)
        player._loaded_user_id = player.__dict__.get("user_id")
        return player
