"""Game logs as submitted, and what replay derived from them.

A `GameLog` is the raw log exactly as received (with its SHA-256, so the same
log sent twice is one row). Only a Celery worker replaying it with the engines
turns it into a `Game` with `GameSeat`s; nothing a submitter claims about
scores is stored as fact.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse


class CompressedJSONField(models.JSONField):
    """JSON kept as zlib-compressed bytes: reads and writes like a JSONField.

    For the replay facts (tens of KB per game, written once, read whole): the database
    stores a few KB of bytes instead of parsing, indexing and compressing a jsonb document
    on every verification. It cannot be queried inside (no key lookups); nothing does.
    """

    LEVEL = 3  # nearly level 6's size at a third of its time

    def get_internal_type(self) -> str:
        return "BinaryField"

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is None:
            return None
        text = json.dumps(value, cls=self.encoder, separators=(",", ":"))
        return connection.Database.Binary(zlib.compress(text.encode("utf-8"), self.LEVEL))

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None:
            return None
        return json.loads(zlib.decompress(value), cls=self.decoder)

    def get_transform(self, name: str) -> Any:
        return models.Field.get_transform(self, name)  # no key lookups inside the bytes


class Source(models.TextChoices):
    HUMAN = "human", "Human"
    TOURNAMENT = "tournament", "Tournament"
    SIMULATED = "simulated", "Simulated"


def visible_to(user, upload: str = "") -> models.Q:
    """Who sees what: anyone sees published uploads and their logs and games, a signed-in
    user their own unpublished ones too, staff everything. `upload` is the path to the
    Upload ("log__upload__" from a Game)."""
    if user.is_authenticated and user.is_staff:
        return models.Q()
    visible = models.Q(**{f"{upload}published": True})
    if user.is_authenticated:
        visible |= models.Q(**{f"{upload}submitted_by": user})
    return visible


class UploadQuerySet(models.QuerySet):
    def visible_to(self, user) -> UploadQuerySet:
        return self.filter(visible_to(user))


class GameLogQuerySet(models.QuerySet):
    def visible_to(self, user) -> GameLogQuerySet:
        return self.filter(visible_to(user, "upload__"))


class GameQuerySet(models.QuerySet):
    def visible_to(self, user) -> GameQuerySet:
        return self.filter(visible_to(user, "log__upload__"))


class Upload(models.Model):
    """One submission: a single log, a JSON Lines batch, a recording or a bot run."""

    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="uploads"
    )
    filename = models.CharField(max_length=255, blank=True)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.HUMAN)
    published = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)
    # Lines of a batch that were not logs at all (bad JSON, bad UTF-8): [{line, error}].
    line_errors = models.JSONField(default=list, blank=True)
    # Lines of a batch already stored: [{line, log}] (stored earlier or by someone else) or
    # [{line, same_as_line}] (repeated within this batch).
    duplicates = models.JSONField(default=list, blank=True)

    objects = UploadQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.filename or f"upload {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:upload", args=[self.pk])


class GameLog(models.Model):
    """A log as submitted, and its verdict."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        VERIFYING = "verifying", "Verifying"
        VERIFIED = "verified", "Verified"
        REJECTED = "rejected", "Rejected"
        # The worker itself failed (not the log's fault) too many times.
        ERROR = "error", "Error"

    upload = models.ForeignKey(Upload, models.CASCADE, related_name="logs")
    line = models.PositiveIntegerField(null=True, blank=True, help_text="Line in a batch file")
    raw = models.TextField(help_text="The log exactly as received")
    sha256 = models.CharField(max_length=64, unique=True)
    game_type = models.CharField(max_length=40, db_index=True)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    error = models.JSONField(null=True, blank=True, help_text="The engine's LogError.to_dict()")
    attempts = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    status_changed = models.DateTimeField(auto_now=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    objects = GameLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.game_type} log {self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("games:log", args=[self.pk])

    @staticmethod
    def digest(raw: str) -> str:
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class Game(models.Model):
    """What replay derived from a verified log."""

    log = models.OneToOneField(GameLog, models.CASCADE, related_name="game")
    game_type = models.CharField(max_length=40, db_index=True)
    ruleset = models.CharField(max_length=40)
    ruleset_options = models.JSONField(default=dict)
    edition = models.CharField(max_length=40)
    player_count = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=20, choices=Source.choices, db_index=True)
    played_at = models.DateTimeField(db_index=True)
    termination = models.CharField(max_length=40, default="normal")
    # The engine's per-turn facts (see docs/log-format.md, "Replay facts").
    facts = CompressedJSONField(default=list)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-played_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.game_type} game {self.pk}"

    def get_absolute_url(self) -> str:
        return self.log.get_absolute_url()


class GameSeat(models.Model):
    """One player's seat in a verified game."""

    game = models.ForeignKey(Game, models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    # Bots in simulated games have no Player; human seats always do.
    player = models.ForeignKey(
        "tournaments.Player", models.PROTECT, null=True, blank=True, related_name="seats"
    )
    name = models.CharField(max_length=100)
    strategy = models.CharField(max_length=100, blank=True, db_index=True)
    score = models.FloatField()
    rank = models.PositiveSmallIntegerField()
    winner = models.BooleanField()
    turn_order = models.PositiveSmallIntegerField(null=True, blank=True)
    bid = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="unique_game_seat")]

    def __str__(self) -> str:
        return f"{self.name} in {self.game}"


class VerdictChange(models.Model):
    """A re-verification (`manage.py reverify`) that changed a log's verdict or scores."""

    log = models.ForeignKey(GameLog, models.CASCADE, related_name="verdict_changes")
    checked_at = models.DateTimeField(auto_now_add=True)
    old_status = models.CharField(max_length=12, choices=GameLog.Status.choices)
    new_status = models.CharField(max_length=12, choices=GameLog.Status.choices)
    old_scores = models.JSONField(null=True, blank=True)
    new_scores = models.JSONField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True, help_text="The new LogError.to_dict()")

    class Meta:
        ordering = ["-checked_at", "-pk"]

    def __str__(self) -> str:
        return f"log {self.log_id}: {self.old_status} -> {self.new_status}"
