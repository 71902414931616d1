"""Stored ratings: derived data, rebuilt from verified games by `recompute_ratings`."""

from django.db import models
from django.utils import timezone

from ratings import elo, skill

PROVISIONAL_GAMES = 10


class Rating(models.Model):
    """A player's current ratings in one game type."""

    player = models.ForeignKey("players.Player", models.CASCADE, related_name="ratings")
    game_type = models.CharField(max_length=40, db_index=True)
    rating = models.FloatField(default=elo.START, help_text="Elo")
    mu = models.FloatField(default=skill.START_MU)
    sigma = models.FloatField(default=skill.START_SIGMA)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game_type", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game_type"], name="unique_player_rating")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game_type}: {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def ordinal(self) -> float:
        return skill.ordinal((self.mu, self.sigma))

    @property
    def openskill_display(self) -> int:
        """The OpenSkill rating as players read it (skill.display_rating)."""
        return skill.display_rating(self.ordinal)


class RatingChange(models.Model):
    """What one verified game did to one player's ratings (history, and idempotency).

    Only what cannot be read elsewhere (issue 25, bytes per game): the seat's rank and the
    game's source are the game's, the OpenSkill values going in are the player's previous
    change's. Keyed by (game, player), the one index that finding a game's changes needs;
    `played_at` and `game_type` stay for the per-player index (history, trends, catch-ups).
    Columns in the order that packs them without padding."""

    # Derived rows, written hundreds of thousands at a time by a recompute: no foreign key
    # constraint (a deferred check per row cost seconds at each commit). The ORM still
    # deletes them with their game or player, and only the rater writes them, holding the
    # ledger lock that retraction and merges take too.
    pk = models.CompositePrimaryKey("game", "player")
    game = models.ForeignKey(
        "games.Game",
        models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        "players.Player",
        models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    played_at = models.DateTimeField()
    elo_before = models.FloatField()
    elo_after = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    game_type = models.CharField(max_length=40)
    won = models.BooleanField()

    class Meta:
        ordering = ["played_at", "game_id"]
        indexes = [
            models.Index(
                fields=["player", "game_type", "played_at"], name="ratings_changes_of_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}: {self.elo_before:.0f} -> {self.elo_after:.0f}"


class RatingLedger(models.Model):
    """One row per game type, locked (SELECT ... FOR UPDATE) by whoever changes that type's
    ratings: the rater (services.rate_pending, one at a time, the others skip), a recompute,
    a retraction. Verification never takes it: it appends PendingRating rows. `stale` says
    the pending games need a catch-up too long for the worker that found them (an older game
    than some already rated): a rate_games_task is queued and will clear it. Saved whenever
    the ratings change, which retires the cached leaderboards (stats/cache.py)."""

    game_type = models.CharField(max_length=40, unique=True)
    stale = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.game_type} ratings{' (stale)' if self.stale else ''}"


class PendingRating(models.Model):
    """A change the ratings have yet to take in: a game that started to count, or a rated
    game being retracted. Appended by the transaction that makes the change (an insert waits
    on nobody); the rater applies them in played order and deletes them."""

    game_type = models.CharField(max_length=40)
    game_id = models.BigIntegerField()  # no foreign key: a retraction's row outlives its game
    played_at = models.DateTimeField()
    created = models.DateTimeField(default=timezone.now)  # how far behind the ratings are

    class Meta:
        indexes = [models.Index(fields=["game_type", "created"])]

    def __str__(self) -> str:
        return f"{self.game_type} game {self.game_id} to rate"


class RatingHistory(models.Model):
    """CHUNK (ratings.history) points of a player's rating history in one game type, packed
    (ratings.history.pack): what their page's chart reads, a handful of rows where their
    rating changes are thousands of scattered ones (issue 25). Derived from RatingChange
    and kept equal to it by the rater (ratings.history). Chunk n holds the player's points
    n x CHUNK on (its start: not stored, it is the chunk's number's); `last_at` and
    `last_game` are its last point's (where the points read from the rating changes begin,
    and a catch-up's rewrite)."""

    pk = models.CompositePrimaryKey("player", "game_type", "chunk")
    player = models.ForeignKey(
        "players.Player",
        models.CASCADE,
        related_name="rating_history",
        db_constraint=False,
        db_index=False,
    )
    last_game = models.BigIntegerField()
    last_at = models.DateTimeField()
    chunk = models.IntegerField()
    game_type = models.CharField(max_length=40)
    points = models.BinaryField()

    def __str__(self) -> str:
        return f"{self.player_id} {self.game_type} history chunk {self.chunk}"
