"""Backtest: how well Elo and OpenSkill predict the winner, on a chronological split.

The earlier games (TRAIN_FRACTION of them) only train the ratings. Each later game is first
predicted by both systems from the ratings before it, then rated, as a live site would.
Accuracy: the share of games whose favourite won (shared between tied favourites).
Log-loss: the mean of -ln(probability given to the actual winner).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ratings import elo, skill
from ratings.rater import GameRecord, Rater
from ratings.services import elo_k, game_records

TRAIN_FRACTION = 0.7
# A system sure of the wrong winner would score infinite log-loss; probabilities are clipped.
MIN_PROBABILITY = 1e-12


@dataclass
class Score:
    name: str
    games: int = 0
    hits: float = 0.0
    loss: float = 0.0

    def add(self, probabilities: list[float], winners: list[bool]) -> None:
        best = max(probabilities)
        favourites = [i for i, p in enumerate(probabilities) if p == best]
        self.hits += sum(winners[i] for i in favourites) / len(favourites)
        won = sum(p for p, w in zip(probabilities, winners, strict=True) if w)
        self.loss -= math.log(max(won, MIN_PROBABILITY))
        self.games += 1

    @property
    def accuracy(self) -> float | None:
        return self.hits / self.games if self.games else None

    @property
    def log_loss(self) -> float | None:
        return self.loss / self.games if self.games else None


@dataclass
class Backtest:
    train_games: int
    test_games: int
    scores: list[Score]


def run_backtest(records: list[GameRecord], k: float = elo.DEFAULT_K) -> Backtest:
    """Train on the first TRAIN_FRACTION of the games (in order), test on the rest."""
    split = int(len(records) * TRAIN_FRACTION)
    rater = Rater(k)
    for record in records[:split]:
        rater.apply(record)
    elo_score, skill_score, chance = Score("Elo"), Score("OpenSkill"), Score("Chance (uniform)")
    for record in records[split:]:
        players = sorted(record.ranks)
        current = [rater.get(p) for p in players]
        winners = [p in record.winners for p in players]
        elo_score.add(elo.win_probabilities([c.elo for c in current]), winners)
        skill_score.add(skill.win_probabilities([(c.mu, c.sigma) for c in current]), winners)
        chance.add([1 / len(players)] * len(players), winners)
        rater.apply(record)
    return Backtest(split, len(records) - split, [elo_score, skill_score, chance])


def backtest_game_type(game_type: str) -> Backtest:
    return run_backtest(game_records(game_type), elo_k())
