"""Ratings of one game type kept in memory while games are applied in order.

The incremental update, the full recompute, filtered leaderboards and the backtest all go
through `Rater.apply`, so they agree to the last bit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ratings import elo, skill


@dataclass(frozen=True)
class GameRecord:
    """The rated part of a verified game: its players' placements."""

    game_id: int
    played_at: datetime
    source: str
    ranks: dict[int, int]  # player id -> rank, 1 = best
    winners: frozenset[int]

    @property
    def order_key(self) -> tuple[datetime, int]:
        return (self.played_at, self.game_id)


@dataclass
class PlayerRatings:
    elo: float = elo.START
    mu: float = skill.START_MU
    sigma: float = skill.START_SIGMA
    games: int = 0
    wins: int = 0
    last_played: datetime | None = None
    history: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Change:
    game: GameRecord
    player_id: int
    before: PlayerRatings
    after: PlayerRatings


class Rater:
    def __init__(self, k: float = elo.DEFAULT_K) -> None:
        self.k = k
        self.players: dict[int, PlayerRatings] = {}

    def get(self, player_id: int) -> PlayerRatings:
        return self.players.setdefault(player_id, PlayerRatings())

    def apply(self, game: GameRecord) -> list[Change]:
        """Rate one game against everyone's ratings from before it."""
        current = {p: self.get(p) for p in game.ranks}
        elo_delta = elo.elo_changes({p: r.elo for p, r in current.items()}, game.ranks, self.k)
        skills = skill.skill_changes({p: (r.mu, r.sigma) for p, r in current.items()}, game.ranks)
        changes = []
        for player, before in current.items():
            mu, sigma = skills[player]
            won = player in game.winners
            after = PlayerRatings(
                elo=before.elo + elo_delta[player],
                mu=mu,
                sigma=sigma,
                games=before.games + 1,
                wins=before.wins + won,
                last_played=game.played_at,
                history=before.history,  # shared: only the newest state reads it
            )
            after.history.append(after.elo)
            self.players[player] = after
            changes.append(Change(game, player, before, after))
        return changes
