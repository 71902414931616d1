"""Ratings of one game type kept in memory while games are applied in order.

The incremental update, the catch-up, the full recompute, filtered leaderboards and the
backtest all go through `Rater.apply`, so they agree to the last bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from ratings import elo, skill

Point = tuple[datetime, int]  # (played_at, game id): games are rated in this order


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The rated part of a verified game: its players' placements."""

    game_id: int
    played_at: datetime
    source: str
    ranks: dict[int, int]  # player id -> rank, 1 = best
    winners: frozenset[int]

    @property
    def order_key(self) -> Point:
        return (self.played_at, self.game_id)


@dataclass(slots=True)
class PlayerRatings:
    elo: float = elo.START
    mu: float = skill.START_MU
    sigma: float = skill.START_SIGMA
    games: int = 0
    wins: int = 0
    last_played: datetime | None = None
    history: list[float] | None = None  # every Elo so far, when the Rater keeps them


class Change(NamedTuple):
    game: GameRecord
    player_id: int
    before: PlayerRatings
    after: PlayerRatings


class Rater:
    def __init__(self, k: float = elo.DEFAULT_K, history: bool = False) -> None:
        self.k = k
        self.history = history
        self.players: dict[int, PlayerRatings] = {}

    def get(self, player_id: int) -> PlayerRatings:
        state = self.players.get(player_id)
        if state is None:
            state = self.players[player_id] = PlayerRatings(history=[] if self.history else None)
        return state

    def apply(self, game: GameRecord) -> list[Change]:
        """Rate one game against everyone's ratings from before it."""
        current = {p: self.get(p) for p in game.ranks}
        elo_delta = elo.elo_changes({p: r.elo for p, r in current.items()}, game.ranks, self.k)
        skills = skill.skill_changes({p: (r.mu, r.sigma) for p, r in current.items()}, game.ranks)
        changes = []
        for player, before in current.items():
            mu, sigma = skills[player]
            after = PlayerRatings(
                before.elo + elo_delta[player],
                mu,
                sigma,
                before.games + 1,
                before.wins + (player in game.winners),
                game.played_at,
                before.history,  # shared: only the newest state reads it
            )
            if after.history is not None:
                after.history.append(after.elo)
            self.players[player] = after
            changes.append(Change(game, player, before, after))
        return changes
