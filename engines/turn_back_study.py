"""When to turn back in Deep Sea Adventure and Boost, by the number of divers and the dive:
a study built on the turn-back advisor's scenario and the evaluator (no Django).

A cell of the study: `players` divers in dive `dive`; the deciding diver is at `depth`
carrying `load` chips of the level found there, heading down; the others are already on
their way home, one, two, three... spaces shallower (deeper when the submarine is too near),
with one level-1 chip each; everyone plays the game's playout strategy afterwards. At every
air from 1 to the edition's air (every 4th, then every air near the threshold found), the
win probability of turning back is compared with that of swimming on, each from up to
STUDY_BUDGET's playouts (common random numbers).

The answer is a threshold: turn back at this air or less. Turning back can only get better,
relative to swimming on, as the air falls, so the threshold is fitted as a step: the air T
minimising the squared standardised evidence against "turn back at T or less, swim on above".
Its interval is the run of airs around T where the two choices are within two standard errors
of each other: there the choice matters less than the noise can tell. (At little air and
great depth both choices are hopeless and tie; that run lies below T and is not part of it.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import accumulate
from typing import Any

from engines.analysis.evaluator import Budget, evaluate_position, seat_actions
from engines.analysis.turn_back import Diver, advisor_state, edition

STUDY_BUDGET = Budget(target_se=0.03, min_playouts=64, max_playouts=192, batch=32)
STUDY_PLAYERS = (2, 3, 4, 5, 6)
STUDY_DIVES = (1, 2, 3)
STUDY_DEPTHS = (4, 8, 12, 16)
STUDY_LOADS = (1, 2)
NOISE_SE = 2.0
COARSE_STEP = 4  # the first pass evaluates every 4th air
NEAR = 3  # the second, every air within 3 of the first pass's threshold


@dataclass(frozen=True)
class Threshold:
    """Turn back at `air` or less; between `low` and `high` air the choice is within noise
    (both None when every air was clear-cut)."""

    air: int
    low: int | None
    high: int | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def scenario(
    game_id: str, players: int, dive: int, depth: int, load: int, air: int
) -> tuple[Any, list[dict[str, Any]]]:
    """The cell's position and the two choices compared (turn back, swim on)."""
    carried = tuple(edition(game_id).path_levels()[depth - 1] for _ in range(load))
    nearer = list(range(depth - 1, 0, -1))
    farther = list(range(depth + 1, depth + players))
    others = [Diver(space, (1,), "up") for space in (nearer + farther)[: players - 1]]
    state = advisor_state(game_id, dive, air, [Diver(depth, carried, "down"), *others])
    actions = [a for a in seat_actions(state, 0) if a["type"] in ("turn", "swim")]
    return state, actions


def turn_back_gains(
    game_id: str,
    players: int,
    dive: int,
    depth: int,
    load: int,
    airs: Iterable[int],
    budget: Budget = STUDY_BUDGET,
) -> list[tuple[int, float, float]]:
    """(air, win of turning back minus win of swimming on, its standard error) at `airs`."""
    gains = []
    for air in airs:
        state, actions = scenario(game_id, players, dive, depth, load, air)
        estimates = evaluate_position(
            game_id,
            state,
            0,
            actions,
            players,
            budget=budget,
            seed=f"study:{players}:{dive}:{depth}:{load}:{air}",
        )
        by_type = {e.action["type"]: e for e in estimates}
        turn, swim = by_type["turn"], by_type["swim"]
        gains.append((air, turn.win - swim.win, math.hypot(turn.se, swim.se)))
    return gains


def fit_threshold(gains: Sequence[tuple[int, float, float]]) -> Threshold:
    """The step that fits the gains best (see the module's docstring); ties go to the
    smaller air. 0 means swim on even with 1 air left."""

    def misfit(threshold: int) -> float:
        total = 0.0
        for air, gain, se in gains:
            against = -gain if air <= threshold else gain  # evidence against the step
            total += (max(0.0, against) / max(se, 1e-9)) ** 2
        return total

    candidates = [0] + [air for air, _, _ in gains]
    best = min(candidates, key=lambda t: (misfit(t), t))
    within = {air: abs(gain) <= NOISE_SE * se for air, gain, se in gains}
    low = high = None
    air = best
    while within.get(air):  # down from the threshold while the choices are within noise
        low, air = air, air - 1
    air = best + 1
    while within.get(air):  # and up from the air just above it
        high, air = air, air + 1
    if low is None and high is None:
        return Threshold(best, None, None)
    return Threshold(best, low if low is not None else best, high if high is not None else best)


def study_cell(
    game_id: str, players: int, dive: int, depth: int, load: int, budget: Budget = STUDY_BUDGET
) -> dict[str, Any]:
    """The cell's threshold: first from every COARSE_STEP-th air, then again with every air
    within NEAR of that first threshold evaluated too (where the bracket lies)."""
    most = edition(game_id).air
    coarse = sorted({*range(1, most + 1, COARSE_STEP), most})
    gains = turn_back_gains(game_id, players, dive, depth, load, coarse, budget)
    first = fit_threshold(gains).air
    near = [a for a in range(first - NEAR, first + NEAR + 1) if 1 <= a <= most and a not in coarse]
    gains = sorted(gains + turn_back_gains(game_id, players, dive, depth, load, near, budget))
    return {
        "players": players,
        "dive": dive,
        "depth": depth,
        "load": load,
        **fit_threshold(gains).to_json(),
    }


def span(cell: Mapping[str, Any]) -> tuple[int, int]:
    """The airs the cell's threshold may lie in: its interval, or the threshold alone."""
    if cell["low"] is None:
        return cell["air"], cell["air"]
    return min(cell["low"], cell["air"]), max(cell["high"], cell["air"])


def increasing_fit(values: Sequence[float]) -> list[float]:
    """The non-decreasing sequence nearest `values` in squared distance (pool adjacent
    violators)."""
    blocks: list[list[float]] = []  # [mean, count]
    for value in values:
        blocks.append([value, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (mean_a, n_a), (mean_b, n_b) = blocks.pop(-2), blocks.pop()
            blocks.append([(mean_a * n_a + mean_b * n_b) / (n_a + n_b), n_a + n_b])
    return [mean for mean, count in blocks for _ in range(int(count))]


def shown_row(cells: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One row of the published table (cells of one game, divers, dive and load, by depth).

    Deeper, a diver needs more air to get home, so the thresholds should not fall with
    depth. When some non-decreasing choice lies within every cell's bracket, the row shows
    one: the nearest non-decreasing thresholds, kept within the brackets. Otherwise the fall
    is real: the row keeps the measured thresholds, and names the cells where some of the
    other divers start deeper than the decider (too near the submarine for all of them to be
    shallower), which makes those cells another race home than the columns to their right."""
    ordered = sorted(cells, key=lambda c: c["depth"])
    spans = [span(c) for c in ordered]
    lowest = list(accumulate((low for low, _ in spans), max))  # the smallest choice
    real = any(least > high for least, (_, high) in zip(lowest, spans, strict=True))
    if real:
        shown = [c["air"] for c in ordered]
    else:
        fitted = increasing_fit([c["air"] for c in ordered])
        shown = list(
            accumulate(
                (
                    min(max(round(f), low), high)
                    for f, (low, high) in zip(fitted, spans, strict=True)
                ),
                max,
            )
        )
        if any(value > high for value, (_, high) in zip(shown, spans, strict=True)):
            shown = lowest
    return {
        "cells": [
            {
                **cell,
                "shown": value,
                "span": cell_span,
                "others_deeper": max(0, cell["players"] - cell["depth"]),
            }
            for cell, value, cell_span in zip(ordered, shown, spans, strict=True)
        ],
        "real_fall": real,
    }
