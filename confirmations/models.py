"""Who has still to confirm a verified game, and what they answered.

A `Review` is opened when a verified game names claimed players other than its submitter;
each of them gets a `Confirmation`. Both hang on the GameLog, not the Game, so a reverify
that derives the game again keeps the answers already given. The game itself carries the
outcome in `Game.counts`, which every rating, standing and statistic reads.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

PLAYER_MODEL = "players.Player"
# A player's name (up to 100 characters), the moment and the engine's words for the event.
STEP_LENGTH = 400


class Review(models.Model):
    """The confirmation of one game by the players it names."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for confirmation"
        DISPUTED = "disputed", "Disputed: staff decide"
        COUNTED = "counted", "Counts"
        REJECTED = "rejected", "Rejected by staff"

    class Reason(models.TextChoices):
        """Why a game counts (blank while it does not)."""

        CONFIRMED = "confirmed", "Every player confirmed it"
        SILENCE = "silence", "Nobody disputed it in time"
        ACCEPTED = "accepted", "Staff accepted it"

    log = models.OneToOneField("games.GameLog", models.CASCADE, related_name="review")
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    counted_because = models.CharField(max_length=10, choices=Reason.choices, blank=True)
    opened_at = models.DateTimeField()
    # Silence is consent: a pending review whose deadline has passed counts (beat's job).
    deadline = models.DateTimeField(db_index=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.TextField(blank=True, help_text="Staff's reason for accepting or rejecting.")

    class Meta:
        ordering = ["-opened_at", "-pk"]

    def __str__(self) -> str:
        # Staff's page heading and breadcrumb, a list's checkboxes, the admin's history: the
        # game in words, never its log's id.
        return f"review of {self.game_in_words} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("games:log", args=[self.log_id])

    @property
    def game_in_words(self) -> str:
        """The game's name (games.names), read once for the review's log: a few queries,
        none for a review of a list that named its rows at once by setting it (the admin's,
        games.admin_columns.GameNamedInWords). Read afresh when the log is another."""
        named_log, name = self.__dict__.get("_game_in_words", (None, None))
        if name is None or named_log != self.log_id:
            name = self._name_of_log()
            self._game_in_words = (self.log_id, name)
        return name

    @game_in_words.setter
    def game_in_words(self, name: str | None) -> None:
        """A list's name for the review's log; None is no name (it is read when asked)."""
        self._game_in_words = (self.log_id, name)

    def _name_of_log(self) -> str:
        from games.names import names_of_logs  # models load before the names' table desk

        if self.log_id is None:
            return "a game not stored yet"
        return names_of_logs([self.log_id]).get(self.log_id, "a deleted game")


class WithPlayers(models.Manager):
    """Confirmations read with their players: what the admin's deletion collector (which
    reads a model's base manager) names each one by, not a query a row (Confirmation.__str__)."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().select_related("player")


class Confirmation(models.Model):
    """One player's answer about one game."""

    class Answer(models.TextChoices):
        WAITING = "waiting", "Not answered yet"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    review = models.ForeignKey(Review, models.CASCADE, related_name="confirmations")
    player = models.ForeignKey(PLAYER_MODEL, models.CASCADE, related_name="confirmations")
    answer = models.CharField(
        max_length=10, choices=Answer.choices, default=Answer.WAITING, db_index=True
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    # Answered on the recording device with the player's own password, not their session.
    at_table = models.BooleanField(default=False)
    # A dispute names the event contested (the replay opens at it) and why.
    event = models.PositiveIntegerField(null=True, blank=True)
    reason = models.TextField(blank=True)
    # The disputed event in words (games.viewer.event_in_words), stored with the dispute so
    # pages and notices never replay the log to say it.
    step = models.CharField(max_length=STEP_LENGTH, blank=True)

    objects = models.Manager()
    with_players = WithPlayers()

    class Meta:
        base_manager_name = "with_players"
        ordering = ["review", "player"]
        constraints = [
            models.UniqueConstraint(fields=["review", "player"], name="one_answer_per_player"),
            models.CheckConstraint(
                condition=~models.Q(answer="disputed") | models.Q(event__isnull=False),
                name="dispute_names_an_event",
            ),
        ]

    def __str__(self) -> str:
        # Shown under its review, which names the game.
        return f"{self.player}: {self.answer}"
