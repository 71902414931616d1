"""OpenSkill (Weng-Lin, Plackett-Luce) for one-player teams (pure functions, no Django)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma

Skill = tuple[float, float]  # (mu, sigma)


def ordinal(skill: Skill) -> float:
    """A conservative single number: mu - 3 sigma."""
    mu, sigma = skill
    return mu - 3 * sigma


def skill_changes[K: Hashable](skills: Mapping[K, Skill], ranks: Mapping[K, int]) -> dict[K, Skill]:
    """New (mu, sigma) of each player after one game (ranks: 1 = best, ties share a rank).

    Players are handed to the model in a canonical order (rank, then rating), so the order
    they were given in never changes a result.
    """
    order = sorted(ranks, key=lambda p: (ranks[p], skills[p]))
    teams = [[MODEL.rating(mu=skills[p][0], sigma=skills[p][1])] for p in order]
    rated = MODEL.rate(teams, ranks=[ranks[p] for p in order])
    return {p: (team[0].mu, team[0].sigma) for p, team in zip(order, rated, strict=True)}


def win_probabilities(skills: Sequence[Skill]) -> list[float]:
    """The model's chance that each player finishes first."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
    return list(MODEL.predict_win(teams))
