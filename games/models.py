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
from datetime import timedelta
from typing import Any

import orjson
from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import dateformat, timezone

from common.database import any_of
from common.quick_urls import quick_url
from games import log_dictionary


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
        return connection.Database.Binary(zlib.compress(self.dumps(value), self.LEVEL))

    def dumps(self, value: Any) -> bytes:
        """Compact JSON; by orjson (a game's facts, ~40 KB, in a tenth of the stdlib's time)
        unless an encoder is given or the value is beyond it (integers over 64 bits). Facts
        hold integers and strings: no NaN, which orjson would write as null."""
        if self.encoder is None:
            try:
                return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
            except TypeError:
                pass
        return json.dumps(value, cls=self.encoder, separators=(",", ":")).encode("utf-8")

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None:
            return None
        # The stdlib reads: orjson would make integers over 64 bits floats, silently.
        return json.loads(zlib.decompress(value), cls=self.decoder)

    def get_transform(self, name: str) -> Any:
        return models.Field.get_transform(self, name)  # no key lookups inside the bytes


class CompressedTextField(models.TextField):
    """Text kept as zlib-compressed bytes: reads and writes like a TextField.

    For the raw logs, stored whole and read whole (replay, the viewer), never searched
    inside: with the logs' preset dictionary (games.log_dictionary) a Deep Vents log of
    11 KB is about 450 bytes, against 1 KB by plain zlib and about 2 KB in PostgreSQL's
    own TOAST compression. Rows written before the column was compressed hold the text as
    it came (bytes starting with "{" or white space, never zlib's 0x78: intake stores JSON
    objects only) and are read as they are.
    """

    def get_internal_type(self) -> str:
        return "BinaryField"

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is None:
            return None
        return connection.Database.Binary(log_dictionary.LOGS.compress(value.encode("utf-8")))

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        value = bytes(value)
        if value[:1] == b"\x78":
            return log_dictionary.LOGS.decompress(value).decode("utf-8")
        return value.decode("utf-8")

    def to_python(self, value: Any) -> Any:
        if isinstance(value, (bytes, memoryview)):
            return self.from_db_value(value, None, None)
        return super().to_python(value)

    def get_transform(self, name: str) -> Any:
        return models.Field.get_transform(self, name)  # nothing to look up inside the bytes


class DigestField(models.BinaryField):
    """A SHA-256 digest kept as its 32 bytes, read and written as its 64 hex digits: half the
    bytes of hex text, in the row and in the unique index (issue 25, bytes per game)."""

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is None:
            return None
        return connection.Database.Binary(bytes.fromhex(value))

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else bytes(value).hex()

    def to_python(self, value: Any) -> Any:
        if isinstance(value, (bytes, memoryview)):
            return bytes(value).hex()
        return value

    def value_to_string(self, obj: models.Model) -> str:
        return self.value_from_object(obj)


class Source(models.TextChoices):
    HUMAN = "human", "Human"
    TOURNAMENT = "tournament", "Tournament"
    SIMULATED = "simulated", "Simulated"


class BatchState(models.TextChoices):
    WAITING = "waiting", "Waiting to be read"
    READING = "reading", "Being read"
    READ = "read", "Read"


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
    # A batch sent over HTTP is stored in the database (BatchPiece rows under `batch_body`) and
    # read by a task, which saves its position as it goes: it resumes there after a crash.
    batch_state = models.CharField(
        max_length=10, choices=BatchState.choices, default=BatchState.READ
    )
    batch_body = models.CharField(max_length=255, blank=True)
    bytes_total = models.BigIntegerField(default=0)
    bytes_read = models.BigIntegerField(default=0)
    lines_read = models.PositiveIntegerField(default=0)
    # When the reading task last saved its position: a reading batch that stops moving lost its
    # worker, and the sweep sends the task again (games/services/sweep.py).
    batch_progress_at = models.DateTimeField(null=True, blank=True)
    # All bad lines; line_errors lists the first MAX_LISTED_LINE_ERRORS of them.
    line_error_count = models.PositiveIntegerField(default=0)

    objects = UploadQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        # Named by its file, else by when it was sent: its uploader reads this, never an id.
        if self.filename or self.created is None:
            return self.filename or "a new upload"
        return f"Upload of {dateformat.format(timezone.localtime(self.created), 'j M Y, H:i')}"

    def get_absolute_url(self) -> str:
        return reverse("games:upload", args=[self.pk])


class BatchPiece(models.Model):
    """A piece of a batch's body as sent (about a megabyte, zlib-compressed), kept in the
    database so that any worker that reaches it can read the batch: adding a machine needs
    no shared disk. `body` names the batch (Upload.batch_body), `start` is the piece's
    offset in the uncompressed body. The pieces are deleted once the batch is read."""

    body = models.CharField(max_length=64)
    number = models.PositiveIntegerField()
    start = models.BigIntegerField()
    data = models.BinaryField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["body", "number"], name="games_batch_piece_order")
        ]

    def __str__(self) -> str:
        return f"batch {self.body}, piece {self.number}"


def lease_length() -> timedelta:
    return timedelta(seconds=settings.GAMES_LEASE_SECONDS)


class GameLogQuerySet(models.QuerySet):
    """The status changes of many logs at once (see GameLog for the life of one)."""

    def visible_to(self, user) -> GameLogQuerySet:
        """Also the logs waiting for this user's confirmation (`review` is the reverse
        relation of the confirmations app, which asks players to confirm)."""
        visible = visible_to(user, "upload__")
        if user.is_authenticated and not user.is_staff:
            asked = GameLog.objects.filter(review__confirmations__player__user=user)
            visible |= models.Q(pk__in=asked.values("pk"))
        return self.filter(visible)

    def claim_together(self, log_ids: list[int], holder: str, resume: bool = False) -> set[int]:
        """Claim the queued logs among these for one task verifying them together; returns
        them. No attempt is counted: a log only uses one up when verified alone. `resume`
        (a retry of `holder` after a database or broker error) also takes back its own."""
        claimable = Q(status=GameLog.Status.QUEUED)
        if resume:
            claimable |= Q(status=GameLog.Status.VERIFYING, lease_holder=holder)
        with transaction.atomic():
            due = list(
                self.select_for_update(skip_locked=True)
                .filter(claimable, any_of("pk", log_ids))
                .values_list("pk", flat=True)
            )
            now = timezone.now()
            self.filter(any_of("pk", due)).update(
                status=GameLog.Status.VERIFYING,
                lease_holder=holder,
                lease_expires=now + lease_length(),
                status_changed=now,
            )
        return set(due)

    def claim_alone(self, log_id: int, holder: str, resume: bool = False) -> GameLog:
        """Claim one log to verify it alone, counting an attempt (committed before the
        replay starts, so a worker killed mid-replay leaves a trace the next attempt sees).

        Claimable: a queued log, one whose lease expired, or one `holder` itself held (an
        earlier delivery of the same task that died; with `resume`, a retry after a database
        or broker error, which counts no new attempt). A log out of attempts ends `error`.
        Returns the log: verifying with `lease_holder == holder` when claimed, else as it is
        (final, or another worker's).
        """
        now = timezone.now()
        mine = Q(status=GameLog.Status.VERIFYING, lease_holder=holder)
        claimable = (
            Q(status=GameLog.Status.QUEUED)
            | mine
            | Q(status=GameLog.Status.VERIFYING, lease_expires__lt=now)
            | Q(status=GameLog.Status.VERIFYING, lease_expires__isnull=True)
        )
        lease = {"lease_holder": holder, "lease_expires": now + lease_length()}
        if resume and self.filter(mine, pk=log_id).update(**lease):
            return self.get(pk=log_id)
        started = self.filter(
            claimable, pk=log_id, attempts__lt=settings.GAMES_VERIFY_MAX_ATTEMPTS
        ).update(
            status=GameLog.Status.VERIFYING,
            attempts=F("attempts") + 1,
            status_changed=now,
            **lease,
        )
        if started:
            return self.get(pk=log_id)
        with transaction.atomic():
            log = self.select_for_update().get(pk=log_id)
            if log.status in GameLog.FINAL or not self.filter(claimable, pk=log_id).exists():
                return log
            log.fail(f"verification failed {log.attempts} times without a verdict")
            return log

    def renew_leases(self, log_ids: list[int], holder: str) -> int:
        """Keep the logs `holder` is still working on its own for another lease."""
        return self.filter(
            any_of("pk", log_ids), status=GameLog.Status.VERIFYING, lease_holder=holder
        ).update(lease_expires=timezone.now() + lease_length())

    def mark_verified(self) -> int:
        """Their Games are stored (the caller holds their row locks)."""
        now = timezone.now()
        return self.update(
            status=GameLog.Status.VERIFIED,
            error=None,
            verified_at=now,
            status_changed=now,
            lease_holder="",
            lease_expires=None,
        )

    def requeue(self) -> int:
        """Back to queued, for a new message (the sweep's re-queue)."""
        return self.update(
            status=GameLog.Status.QUEUED,
            status_changed=timezone.now(),
            lease_holder="",
            lease_expires=None,
        )

    def lease_expired(self) -> GameLogQuerySet:
        """Verifying logs nobody holds any more: their worker died or lost its way."""
        return self.filter(status=GameLog.Status.VERIFYING).filter(
            Q(lease_expires__lt=timezone.now()) | Q(lease_expires__isnull=True)
        )


class GameLog(models.Model):
    """A log as submitted, and its verdict.

    Its life: queued (stored, a message sent) -> verifying (claimed by a worker, which holds
    a lease on it: `lease_holder` until `lease_expires`, renewed while it works) -> verified,
    rejected or error. Every change of status is one of the methods here or on its queryset;
    the sweep (games/services/sweep.py) re-queues logs whose lease expired or whose message
    the broker lost.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        VERIFYING = "verifying", "Verifying"
        VERIFIED = "verified", "Verified"
        REJECTED = "rejected", "Rejected"
        # Not a verdict on the rules: verification itself failed (an unexpected exception,
        # or the worker died every time it verified this log alone).
        ERROR = "error", "Error"

    FINAL = (Status.VERIFIED, Status.REJECTED, Status.ERROR)

    upload = models.ForeignKey(Upload, models.CASCADE, related_name="logs")
    line = models.PositiveIntegerField(null=True, blank=True, help_text="Line in a batch file")
    raw = CompressedTextField(help_text="The log exactly as received")
    sha256 = DigestField(unique=True)
    game_type = models.CharField(max_length=40)
    # Indexed only where not verified (games_log_unfinished): the sweep and the lists
    # filtered by a status look for the few logs in the other states.
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    error = models.JSONField(null=True, blank=True, help_text="The engine's LogError.to_dict()")
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Times verified alone (a task verifying many logs counts none)"
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    status_changed = models.DateTimeField(auto_now=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    lease_holder = models.CharField(
        max_length=64, blank=True, help_text="The task verifying it (its Celery task id)"
    )
    lease_expires = models.DateTimeField(
        null=True, blank=True, help_text="The sweep re-queues it after this, if still verifying"
    )

    objects = GameLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        # Plain indexes, not db_index: on PostgreSQL that adds a LIKE index to a text column,
        # which nothing here needs (issue 25, bytes per game).
        indexes = [
            models.Index(fields=["game_type"], name="games_log_game_type"),
            models.Index(
                fields=["status", "created"],
                condition=~Q(status="verified"),
                name="games_log_unfinished",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_type} log {self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("games:log", args=[self.pk])

    @staticmethod
    def digest(raw: str) -> str:
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()

    def reject(self, error: dict[str, Any]) -> None:
        """The rules' verdict: the engine's LogError.to_dict()."""
        self._finish(GameLog.Status.REJECTED, error, verified_at=timezone.now())

    def fail(self, message: str) -> None:
        """No verdict on the rules could be reached: `error`, with why."""
        self._finish(GameLog.Status.ERROR, {"kind": "error", "message": message, "text": message})

    def mark_verified(self) -> None:
        """Its Game is stored (the caller holds the row lock)."""
        self._finish(GameLog.Status.VERIFIED, None, verified_at=timezone.now())

    def _finish(self, status: str, error: dict[str, Any] | None, **fields: Any) -> None:
        self.status, self.error = status, error
        self.lease_holder, self.lease_expires = "", None
        for name, value in fields.items():
            setattr(self, name, value)
        self.save(
            update_fields=[
                "status",
                "error",
                "lease_holder",
                "lease_expires",
                "status_changed",
                *fields,
            ]
        )


class Game(models.Model):
    """What replay derived from a verified log."""

    log = models.OneToOneField(GameLog, models.CASCADE, related_name="game")
    game_type = models.CharField(max_length=40)
    ruleset = models.CharField(max_length=40)
    ruleset_options = models.JSONField(default=dict)
    edition = models.CharField(max_length=40)
    player_count = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=20, choices=Source.choices)
    # Indexed by games_played_keyset, which leads with it.
    played_at = models.DateTimeField()
    termination = models.CharField(max_length=40, default="normal")
    # False while the players it names have still to confirm it, or when a dispute is open
    # or was upheld (confirmations app): only counted games reach ratings, standings, stats.
    # Nearly every game counts: only those that do not are indexed (games_uncounted).
    counts = models.BooleanField(default=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-played_at", "-pk"]
        indexes = [
            # The lists' keyset, newest first (games/pagination.py).
            models.Index(F("played_at").desc(), F("id").desc(), name="games_played_keyset"),
            # Plain indexes, as GameLog's: no LIKE index beside them.
            models.Index(fields=["game_type"], name="games_game_type"),
            models.Index(fields=["source"], name="games_game_source"),
            # The few games that do not count, which a player's page leaves out of their
            # figures (pages.services.profiles.seat_figures).
            models.Index(fields=["id"], condition=Q(counts=False), name="games_uncounted"),
        ]

    def __str__(self) -> str:
        from games.names import game_name  # it reaches the table desk, which imports this

        return game_name(self)

    def get_absolute_url(self) -> str:
        # From the log's id alone: a list of games links each without loading its log; the
        # pattern reversed once (common.quick_urls), not once a row of the games list.
        return quick_url("games:log", self.log_id)

    # The engine's per-turn facts (see docs/log-format.md, "Replay facts") are not stored:
    # a 4-player Deep Vents game's came to about 5 KB compressed, five times its compressed
    # log, and replay derives them again in a few milliseconds. Verification hands over in
    # memory (Game(facts=...)) those the statistics and eliminations read, without the
    # detail facts only viewers read (Game.detail_facts in engines); a game read from the
    # database replays its log, every fact, the first time they are asked for (the API's
    # detail, a table's bid record, a rebuild of the statistics lines).
    _facts: list[dict[str, Any]] | None = None

    @property
    def facts(self) -> list[dict[str, Any]]:
        if self._facts is None:
            from games.services.verification import replay_raw  # it imports this module

            self._facts = replay_raw(self.log.raw, detail_facts=True)[1].facts or []
        return self._facts

    @facts.setter
    def facts(self, value: list[dict[str, Any]] | None) -> None:
        """None lets go of them: replayed again if asked for."""
        self._facts = value


class GameSeat(models.Model):
    """One player's seat in a verified game.

    Keyed by (game, seat), the one index finding a game's seats needs: no id of its own
    and no index on it (some 110 bytes a game, issue 25). It carries its game's played time
    (`played_at`, copied when the seat is made: a game's never changes) so that a player's
    games list, newest first, reads a run of one index (games_seats_of_player) instead of
    sorting every seat of the player joined to its game. Columns in the order that packs
    them without padding."""

    pk = models.CompositePrimaryKey("game", "seat")
    # No index of its own: the key leads with it.
    game = models.ForeignKey(Game, models.CASCADE, related_name="seats", db_index=False)
    # Bots in simulated games have no Player; human seats always do. No index of its own:
    # games_seats_of_player leads with it.
    player = models.ForeignKey(
        "players.Player",
        models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        db_index=False,
    )
    played_at = models.DateTimeField(help_text="The game's (Game.played_at)")
    score = models.FloatField()
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    winner = models.BooleanField()
    name = models.CharField(max_length=100)
    strategy = models.CharField(max_length=100, blank=True)
    # The engine's per-seat summary (Game.seat_summary, labelled by its seat_columns): a
    # Deep Vents seat's turn order and bid, {"turn": 1, "bid": 3} (DV-3); null for a game
    # that summarises nothing, so its seats cost no bytes for it (issue 25).
    summary = models.JSONField(null=True, blank=True)

    class Meta:
        # By the game's id, not "game" (its -played_at), which joins the game to every
        # reading of seats only to sort them.
        ordering = ["game_id", "seat"]
        indexes = [
            # A player's seats newest first, as their games list shows them; bots' seats,
            # which no page looks up, left out.
            models.Index(
                F("player"),
                F("played_at").desc(),
                F("game").desc(),
                condition=Q(player__isnull=False),
                name="games_seats_of_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.played_at is None:
            self.played_at = self.game.played_at
        super().save(*args, **kwargs)


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


class RecordingDraft(models.Model):
    """A game being recorded on the Record page, not stored as a game yet, kept for its
    recorder so that nothing recorded is lost (issue 22): the page sends it after every
    step (and keeps a copy in the browser's localStorage for when the server cannot be
    reached), so a phone whose browser storage is cleared, or another device, can resume
    it. It is removed only when its game is stored or its recorder discards it; a refused
    save keeps it, with the refusal (`refusal`) shown beside it."""

    recorder = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="recording_drafts"
    )
    key = models.CharField(max_length=40, help_text="The recording's id, made by the page")
    game_type = models.CharField(max_length=40)
    # A tournament table's id: games knows no tournament models (the table desk does).
    table = models.PositiveIntegerField(null=True, blank=True)
    base = models.JSONField(help_text="game, ruleset, players, setup and table as started")
    steps = CompressedJSONField(default=list, help_text="[{event or draw, label}] in order")
    step_count = models.PositiveIntegerField(default=0)
    refusal = models.JSONField(
        null=True, blank=True, help_text="The last refused save's error (text, event index)"
    )
    # Counted by the page, one up per step kept: which copy is newer, this browser's or the
    # server's, is decided on it, never on clocks (the server stamps a state later than the
    # browser that kept it, so a slower older copy looked newer).
    revision = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["recorder", "key"], name="unique_recording_draft")
        ]

    def __str__(self) -> str:
        return f"{self.game_type} recording {self.key} of {self.recorder} ({self.step_count} steps)"

    def summary(self) -> dict[str, Any]:
        """What the Record page lists to resume (the steps are fetched on resume)."""
        return {
            "key": self.key,
            "game": self.game_type,
            "table": self.table,
            "table_label": self.base.get("tableLabel"),
            "players": [p.get("name") for p in self.base.get("players", [])],
            "step_count": self.step_count,
            "refusal": self.refusal,
            "refused_step": self.refused_step(),
            "revision": self.revision,
            "updated_at": self.updated_at.isoformat(),
        }

    def refused_step(self) -> dict[str, Any] | None:
        """The step of the event the last refusal names ({event, label}), if it names one
        (its index counts events: drawn hexes are not events)."""
        index = (self.refusal or {}).get("index")
        if type(index) is not int or index < 0:
            return None
        events = [step for step in self.steps if "event" in step]
        return events[index] if index < len(events) else None

    def full(self) -> dict[str, Any]:
        """The recording as the page resumes it."""
        return {
            "key": self.key,
            "base": self.base,
            "steps": self.steps,
            "refusal": self.refusal,
            "revision": self.revision,
            "updated_at": self.updated_at.isoformat(),
        }
