"""Tournaments: entries, rounds, tables and who sat at them."""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from engines.registry import GAMES, TOURNAMENT_GAME, get_game
from players.models import Player


def new_tournament_seed() -> str:
    return secrets.token_hex(8)


# Choices are callables so that a game or ruleset added to engines/ needs no migration.
def game_choices() -> list[tuple[str, str]]:
    return [(game_id, get_game(game_id).title) for game_id in GAMES]


def ruleset_label(name: str) -> str:
    return name.replace("-", " ").capitalize()


def ruleset_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The rulesets grouped by game (a ruleset name may recur in several games)."""
    return [
        (
            get_game(game_id).title,
            [(name, ruleset_label(name)) for name in get_game(game_id).rulesets()],
        )
        for game_id in GAMES
    ]


class Tournament(models.Model):
    """A tournament of one game and ruleset, played over numbered rounds."""

    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss-style pods"
        ROUND_ROBIN = "round-robin", "Round robin (small fields)"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class Seeding(models.TextChoices):
        RATING = "rating", "By rating"
        RANDOM = "random", "At random"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    game_type = models.CharField(max_length=40, default=TOURNAMENT_GAME, choices=game_choices)
    ruleset = models.CharField(
        max_length=40,
        default="starting-bid",
        choices=ruleset_choices,
        help_text="One of the chosen game's rulesets (grouped by game).",
    )
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    rounds_planned = models.PositiveSmallIntegerField(default=4)
    round_one_seeding = models.CharField(
        max_length=10, choices=Seeding.choices, default=Seeding.RATING
    )
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    status = models.CharField(
        max_length=20, choices=Status.choices, default=Status.REGISTRATION, db_index=True
    )
    # Every random choice of the tournament (seating, opening bidders, the tiebreak draw)
    # derives from this, so each one can be reproduced and checked afterwards.
    seed = models.CharField(max_length=32, default=new_tournament_seed)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="organised_tournaments",
        help_text="Besides staff, who may give this tournament's tables their results.",
    )
    registration_open = models.BooleanField(
        default=False, help_text="Whether signed-in players may register themselves."
    )
    check_in_required = models.BooleanField(
        default=False,
        help_text="Seat only the players who checked in (themselves, or at the desk).",
    )
    late_entries_until_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The last round a late entry may start at; empty: none once round 1 is seated.",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.slug])

    def clean(self) -> None:
        if self.game_type in GAMES:
            game = get_game(self.game_type)
            if self.ruleset not in game.rulesets():
                known = ", ".join(ruleset_label(name) for name in game.rulesets())
                raise ValidationError(
                    {
                        "ruleset": f"{game.title} has no {ruleset_label(self.ruleset)!r} ruleset; "
                        f"its rulesets: {known}"
                    }
                )

    def rng(self, purpose: str) -> random.Random:
        """A generator for one named draw of this tournament (reproducible)."""
        return random.Random(f"{self.seed}:{purpose}")


class Registration(models.Model):
    """A player entered in a tournament; late joiners start at a later round."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, models.PROTECT, related_name="registrations")
    joined_round = models.PositiveSmallIntegerField(
        default=1, help_text="First round this player is seated in (late join)."
    )
    dropped_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Last round played before dropping out."
    )
    # The final tiebreak: a number drawn from the tournament seed and the handle (recorded).
    draw = models.FloatField(editable=False)
    registered_at = models.DateTimeField(auto_now_add=True)
    # Once checked in, a player is seated every round until they drop (check-in is for the
    # day, as at most events; a late entry checks in when they arrive).
    checked_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "player"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_registration")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    def save(self, *args, **kwargs) -> None:
        if self.draw is None:
            self.draw = self.tournament.rng(f"draw:{self.player.handle}").random()
        super().save(*args, **kwargs)

    def plays_in(self, round_number: int) -> bool:
        """Whether this player is seated in that round: entered by then, not dropped, and
        checked in when the tournament asks for it (the seating's list of players)."""
        dropped = self.dropped_after_round is not None and self.dropped_after_round < round_number
        absent = self.tournament.check_in_required and self.checked_in_at is None
        return self.joined_round <= round_number and not dropped and not absent


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    seated_at = models.DateTimeField(auto_now_add=True)
    # The round timer the organiser starts: the round ends at timer_started_at + minutes.
    timer_started_at = models.DateTimeField(null=True, blank=True)
    timer_minutes = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:seating", args=[self.tournament.slug, self.number])

    @property
    def ends_at(self) -> datetime | None:
        if self.timer_started_at is None or self.timer_minutes is None:
            return None
        return self.timer_started_at + timedelta(minutes=self.timer_minutes)


class Table(models.Model):
    """One table of a round. Its result comes from an attached verified log, or from the
    organiser by hand (then flagged unverified: it counts for standings only)."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    log = models.OneToOneField(
        "games.GameLog", models.SET_NULL, null=True, blank=True, related_name="table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return f"{self.round}, table {self.number}"

    def get_absolute_url(self) -> str:
        return reverse(
            "tournaments:table", args=[self.round.tournament.slug, self.round.number, self.number]
        )

    @property
    def game(self):
        """The verified game of the attached log, or None; also None while the game does
        not count (its players have still to confirm it, or it is disputed)."""
        if self.log_id is None:
            return None
        game = getattr(self.log, "game", None)
        return game if game is not None and game.counts else None

    @property
    def result_kind(self) -> str:
        """'verified' (from a log), 'unverified' (entered by hand) or 'pending'."""
        if self.game is not None:  # the seats are not read
            return result_kind(True, [])
        return result_kind(False, [s.hand_rank for s in self.seats.all()])


def result_kind(counted_game: bool, hand_ranks: list[int | None]) -> str:
    """Table.result_kind from whether the table has a counted game and its seats' hand
    ranks (the tournament page reads them for every table at once)."""
    if counted_game:
        return "verified"
    if hand_ranks and all(rank is not None for rank in hand_ranks):
        return "unverified"
    return "pending"


class TableSeat(models.Model):
    """Who sat at a table. Seat order does not matter for play (the bid decides turn order,
    DV-3); the randomly drawn opening bidder is recorded here."""

    table = models.ForeignKey(Table, models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, models.PROTECT, related_name="table_seats")
    opening_bidder = models.BooleanField(default=False)
    hand_rank = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Placement entered by hand (unverified), 1 = best."
    )
    hand_score = models.FloatField(null=True, blank=True, help_text="Game score entered by hand.")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="unique_table_seat"),
            models.UniqueConstraint(fields=["table", "player"], name="unique_table_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"


class Elimination(models.Model):
    """A seat eliminated in a tournament game (DV-8), at which game turn: read from the
    game's facts once, when it is verified (tournaments.receivers), so the tournament page
    shows eliminations without decoding every table's facts. Deleted with the game."""

    game = models.ForeignKey("games.Game", models.CASCADE, related_name="tournament_eliminations")
    seat = models.PositiveSmallIntegerField()
    turn = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="unique_elimination_seat")
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id} out on turn {self.turn}"


class ResultChange(models.Model):
    """One change to a table's result made at the desk (entered, edited or undone): who,
    when, and the result before and after, so a corrected result keeps its history.

    A result is written as {"log": id} or {"hand": [[handle, place, points], ...]}, and
    {} for none."""

    class Action(models.TextChoices):
        ENTERED = "entered", "Entered"
        EDITED = "edited", "Edited"
        UNDONE = "undone", "Undone"

    table = models.ForeignKey(Table, models.CASCADE, related_name="result_changes")
    action = models.CharField(max_length=10, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_action_display()} by {self.by} at {self.at:%H:%M}"
