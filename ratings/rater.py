"""Ratings of one game type kept in memory while games are applied in order.

The incremental update, the catch-up, the full recompute, filtered leaderboards and the
backtest all go through `Rater.apply`, so they agree to the last bit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from ratings import elo, skill

Point = tuple[datetime, int]  # (played_at, game id): games are rated in this order


def rating_order(played_at: datetime, game_id: int) -> Point:
    """Where a game comes in the rating order: played time, then id (the database's reads
    order by the same two columns: ratings.services.records_of, from_point)."""
    return (played_at, game_id)


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
        return rating_order(self.played_at, self.game_id)


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
    """What one game did to one player's ratings."""

    game: GameRecord
    player_id: int
    elo_before: float
    elo_after: float
    mu_before: float
    mu_after: float
    sigma_before: float
    sigma_after: float


def elo_step(
    ranks: Mapping[int, int], elo_before: Mapping[int, float], k: float
) -> dict[int, float]:
    """The rater's Elo step: each player's Elo after a game (their ranks in it: GameRecord),
    from their Elo going into it (elo.elo_changes). Rater.apply takes it, and so does the
    Elo a verified group is banded by before the rater has taken it in
    (ratings.services.running_elo)."""
    changes = elo.elo_changes(elo_before, ranks, k)
    return {player: elo_before[player] + change for player, change in changes.items()}


class Rater:
    def __init__(self, k: float = elo.DEFAULT_K, history: bool = False) -> None:
        self.k = k
        self.history = history
        self.players: dict[int, PlayerRatings] = {}

    def get(self, player_id: int) -> PlayerRatings:
        """The player's current ratings (updated in place as games are applied)."""
        state = self.players.get(player_id)
        if state is None:
            state = self.players[player_id] = PlayerRatings(history=[] if self.history else None)
        return state

    def apply(self, game: GameRecord) -> list[Change]:
        """Rate one game against everyone's ratings from before it."""
        current = {p: self.get(p) for p in game.ranks}
        elo_after = elo_step(game.ranks, {p: s.elo for p, s in current.items()}, self.k)
        skills = skill.skill_changes({p: (s.mu, s.sigma) for p, s in current.items()}, game.ranks)
        changes = []
        for player, state in current.items():
            mu, sigma = skills[player]
            changes.append(
                Change(game, player, state.elo, elo_after[player], state.mu, mu, state.sigma, sigma)
            )
            state.elo, state.mu, state.sigma = elo_after[player], mu, sigma
            state.games += 1
            state.wins += player in game.winners
            state.last_played = game.played_at
            if state.history is not None:
                state.history.append(state.elo)
        return changes
