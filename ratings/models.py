"""Stored ratings: derived data, rebuilt from verified games by `recompute_ratings`."""

from django.db import models

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


class RatingChange(models.Model):
    """What one verified game did to one player's ratings (history, and idempotency)."""

    game = models.ForeignKey("games.Game", models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey("players.Player", models.CASCADE, related_name="rating_changes")
    game_type = models.CharField(max_length=40)
    played_at = models.DateTimeField()
    source = models.CharField(max_length=20)
    rank = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    elo_before = models.FloatField()
    elo_after = models.FloatField()
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_before = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["played_at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="unique_rating_change")
        ]
        indexes = [models.Index(fields=["player", "game_type", "played_at"])]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}: {self.elo_before:.0f} -> {self.elo_after:.0f}"


class RatingLedger(models.Model):
    """One row per game type, locked (SELECT ... FOR UPDATE) by whoever changes that type's
    ratings, so concurrent verifications apply their games one after another. `stale` says a
    game arrived older than one already rated: a recompute is queued and will clear it."""

    game_type = models.CharField(max_length=40, unique=True)
    stale = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.game_type} ratings{' (stale)' if self.stale else ''}"
