"""OpenSkill (Weng-Lin, Plackett-Luce) for one-player teams (pure functions, no Django).

`skill_changes` is openskill's PlackettLuce.rate written out for one-player teams with the
library's defaults: the same float operations in the same order, so the same numbers to the
last bit (tests/ratings/test_openskill.py compares them over random tables), at a fifth of the cost
(no deep copies, rating objects or argument checks: the full recompute rates 100,000 games).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np
from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
BETA_SQUARED = MODEL.beta**2
TAU_SQUARED = MODEL.tau * MODEL.tau
KAPPA = MODEL.kappa

Skill = tuple[float, float]  # (mu, sigma)


def ordinal(skill: Skill) -> float:
    """A conservative single number: mu - 3 sigma."""
    mu, sigma = skill
    return mu - 3 * sigma


# The OpenSkill rating players are shown: the ordinal scaled to Elo-like numbers, as TrueSkill's
# and lichess's displays do, never below zero. A newcomer (mu 25, sigma 25/3: ordinal 0) shows
# 1000; each point of ordinal is 40 display points.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def display_rating(ordinal_value: float) -> int:
    """The OpenSkill rating as players read it: 1000 + 40 x (mu - 3 sigma), at least 0."""
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * ordinal_value))


def display_ratings(mus: Iterable[float], sigmas: Iterable[float]) -> list[int]:
    """display_rating(ordinal((mu, sigma))) of each pair, by numpy: a player's rating history
    has thousands (issue 25: 4,229 cost 4 ms one by one). The same float operations, and
    np.rint rounds halves to even as round() does."""
    mus, sigmas = np.asarray(mus, dtype=float), np.asarray(sigmas, dtype=float)
    if mus.shape != sigmas.shape:
        raise ValueError(f"{mus.size} mus for {sigmas.size} sigmas")
    shown = np.rint(DISPLAY_BASE + DISPLAY_SCALE * (mus - 3 * sigmas))
    return np.maximum(shown, 0).astype(np.int64).tolist()


def skill_changes[K: Hashable](skills: Mapping[K, Skill], ranks: Mapping[K, int]) -> dict[K, Skill]:
    """New (mu, sigma) of each player after one game (ranks: 1 = best, ties share a rank).

    Players are taken in a canonical order (rank, then rating), so the order they were given
    in never changes a result. Ties are not averaged: openskill 6.2 means to, but compares
    each player with itself, so no tie ever moved (kept, to keep its numbers).
    """
    order = sorted(ranks, key=lambda p: (ranks[p], skills[p]))
    places = [ranks[p] for p in order]
    mus = [skills[p][0] for p in order]
    # The dynamics factor tau widens every sigma before the game.
    sigmas = [math.sqrt(skills[p][1] * skills[p][1] + TAU_SQUARED) for p in order]
    variances = [sigma**2 for sigma in sigmas]
    total = 0.0
    for variance in variances:
        total += variance + BETA_SQUARED
    c = math.sqrt(total)
    strengths = [math.exp(mu / c) for mu in mus]
    # Places are sorted: those tied with q start at first[q], those placed q or better end at
    # ends[q]. field[q]: the strengths of everyone placed q or worse, added left to right.
    first = [places.index(place) for place in places]
    ends = [first[q] + places.count(place) for q, place in enumerate(places)]
    field = []
    for q in range(len(places)):
        if first[q] == q:
            added = 0.0
            for strength in strengths[q:]:
                added += strength
        field.append(added)
    after = {}
    for i, player in enumerate(order):
        omega = 0.0
        delta = 0.0
        strength = strengths[i]
        for q in range(ends[i]):
            share = strength / field[q]
            tied = ends[q] - first[q]
            delta += share * (1 - share) / tied
            if q == i:
                omega += (1 - share) / tied
            else:
                omega -= share / tied
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c**2
        delta *= math.sqrt(variance) / c  # the model's gamma
        sigma = sigmas[i]
        weight = sigma**2 / variance  # 1.0 for a team of one, as the library computes it
        after[player] = (
            mus[i] + weight * omega,
            sigma * math.sqrt(max(1 - weight * delta, KAPPA)),
        )
    return after


def win_probabilities(skills: Sequence[Skill]) -> list[float]:
    """The model's chance that each player finishes first."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
    return list(MODEL.predict_win(teams))
