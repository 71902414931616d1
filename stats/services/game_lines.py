"""The statistics lines a game's replay facts give beyond seats and pairs: per hex (Deep
Vents), per dive (Deep Sea Adventure) and per round (Deep Dive). Each game's adapter
(stats/adapters.py) picks its builder.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import chain, pairwise
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from stats.models import HEX_LINE_COUNTERS
from stats.services.hex_packing import HexMatrix

if TYPE_CHECKING:
    from stats.services.lines import SeatRow

EARLY_TURNS = frozenset(range(1, 4))  # a hex drafted on a player's turns 1-3 is "early"
LATE_TURNS = frozenset(range(6, 9))  # ... on turns 6-8 "late"


class RoundRow(NamedTuple):
    """An unsaved RoundLine; `seat` is the seat's number in its game."""

    seat: int
    round: int
    moment: int
    points: float
    drowned: float
    depth: float


# Each counter's column in a game's matrix of hex lines (HexMatrix.counts): the counts
# stored, not the win-weighted twins, which the sums take from the seat lines (HEX_DERIVED).
AT = {name: index for index, name in enumerate(HEX_LINE_COUNTERS)}
WIDTH = len(HEX_LINE_COUNTERS)
OFFERED, TAKEN, POSITION, PAID, FOUND = (
    AT[n] for n in ("offered", "taken", "position", "paid", "found")
)
GROWS, GROW_ARCHAEA, TRIGGERS, TRIGGER_ARCHAEA = (
    AT[n] for n in ("grows", "grow_archaea", "triggers", "trigger_archaea")
)
ATTACKS, DAMAGE, DECIMATED, SURVIVED = (
    AT[n] for n in ("attacks", "damage", "decimated", "survived")
)
OWNED, EARLY, LATE, PASSED = (AT[n] for n in ("owned", "early", "late", "passed"))
TAKEN_AT_POSITION = {p: AT[f"taken_p{p}"] for p in range(1, 7)}
TAKEN_ON_TURN = {t: AT[f"taken_t{t}"] for t in range(1, 9)}
TAKEN_EARLY = [TAKEN_ON_TURN[t] for t in sorted(EARLY_TURNS)]
TAKEN_LATE = [TAKEN_ON_TURN[t] for t in sorted(LATE_TURNS)]


def deep_vents_hex_lines(facts: list[dict[str, Any]]) -> HexMatrix:
    """One game's hex lines (deep_vents_hex_lines_of)."""
    return deep_vents_hex_lines_of([facts])[0]


# The kinds of facts that count here, sorted out of a group's facts (deep_vents_hex_lines_of).
KINDS = ("hex-totals", "take", "decimate", "eliminated")
# Each position (1-6) and turn (1-8) counted apart: its column, by the number.
AT_POSITION = numpy.array([-1, *(TAKEN_AT_POSITION[p] for p in range(1, 7))])
ON_TURN = numpy.array([-1, *(TAKEN_ON_TURN[t] for t in range(1, 9))])


# Games whose hex lines are counted together: enough to share numpy's calls, few enough
# that their facts stay in the processor's cache between the passes over them. Measured
# when a verification's facts held every grow (300 bot games, load 8, 2026-12-06: 0.20 ms
# a game 10 or 20 at a time, 0.24 for 50, 0.28 for 100); now that they hold some 40 facts
# a game, a verified group's 100 games (verification.GROUP_SIZE) cost 0.054 ms a game 50
# at a time against 0.057 16 at a time, and a rebuild's 50 with detail facts
# (aggregate.REPLAYED_AT_ONCE) 0.091 against 0.095 (300 bot games, 3 rounds, best of 5,
# load 1.0-1.4, 2026-12-07, issue 25).
GAMES_AT_ONCE = 50


def deep_vents_hex_lines_of(games: Sequence[list[dict[str, Any]]]) -> list[HexMatrix]:
    """Per game (its facts), per seat and hex type (a line each, in that order): drafting,
    owning or passing over, and use. Built as the matrix they are packed from, several
    games at once (issue 25): their facts sorted by kind, each kind's fields read by C loops
    (itemgetter), and every count a cell (line * WIDTH + counter) summed into one matrix by
    bincount. Counting fact by fact in Python, then a numpy matrix a game, took a quarter
    of a verified log's replay."""
    return [
        matrix
        for start in range(0, len(games), GAMES_AT_ONCE)
        for matrix in hex_lines_together(games[start : start + GAMES_AT_ONCE])
    ]


def hex_lines_together(games: Sequence[list[dict[str, Any]]]) -> list[HexMatrix]:
    """deep_vents_hex_lines_of for a few games. A line is keyed (game, seat, hex type) by
    one number, hex types numbered in name order: the lines come in (seat, hex type) order
    within each game."""
    by_kind: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    ends = []  # per game, where its facts of each kind end
    for facts in games:
        for fact in facts:
            by_kind[fact["type"]].append(fact)
        ends.append([len(by_kind[kind]) for kind in KINDS])
    counted = numpy.diff(numpy.array([[0] * len(KINDS), *ends]).reshape(-1, len(KINDS)), axis=0)
    numbered = numpy.arange(len(games))

    def picked(kind: str) -> tuple[list[dict[str, Any]], numpy.ndarray]:
        """The group's facts of this kind, and each one's game."""
        return by_kind[kind], numpy.repeat(numbered, counted[:, KINDS.index(kind)])

    def numbers(chosen: Sequence[Any], name: str | int, dtype: Any = numpy.intp):
        return numpy.fromiter(map(itemgetter(name), chosen), dtype, len(chosen))

    # Per kind: the facts' games, seats and hex types, where each counts once (+1) and
    # beside which amounts (counter, values).
    # A game's grows, triggers and attacks come summed per seat and hex type, in the one
    # fact its end adds: [seat, hex type, grows, archaea, triggers, collected, attacks,
    # damage] (engines.deep_vents.state, _fact_hex_totals).
    hex_totals, totals_games = picked("hex-totals")
    summed = [fact["hexes"] for fact in hex_totals]
    totals = list(chain.from_iterable(summed))
    total_games = numpy.repeat(
        totals_games, numpy.fromiter(map(len, summed), numpy.intp, len(summed))
    )
    takes, take_games = picked("take")
    decimated, decimate_games = picked("decimate")
    offered = list(map(itemgetter("offered"), takes))
    offers = numpy.fromiter(map(len, offered), numpy.intp, len(offered))
    take_seats = numbers(takes, "seat")
    groups = (  # (games, seats, hex types, the counter counted once, if any)
        (total_games, numbers(totals, 0), list(map(itemgetter(1), totals)), None),
        (
            numpy.repeat(take_games, offers),
            numpy.repeat(take_seats, offers),
            list(chain.from_iterable(offered)),
            OFFERED,
        ),
        (take_games, take_seats, list(map(itemgetter("hex"), takes)), TAKEN),
        (
            decimate_games,
            numbers(decimated, "seat"),
            list(map(itemgetter("hex"), decimated)),
            DECIMATED,
        ),
    )
    eliminated, eliminated_games = picked("eliminated")
    eliminated_seats = numbers(eliminated, "seat")
    names = sorted(set(chain.from_iterable(group[2] for group in groups)))
    code = {name: number for number, name in enumerate(names)}
    seats = 1 + max(  # seat numbers a game may use, a seat out without a hex line too
        (int(seen.max()) for seen in (*(g[1] for g in groups), eliminated_seats) if len(seen)),
        default=0,
    )
    keys = [
        (games_ * seats + seats_) * len(names)
        + numpy.fromiter(map(code.__getitem__, hexes), numpy.intp, len(hexes))
        for games_, seats_, hexes, _ in groups
    ]
    lines, line_of = numpy.unique(numpy.concatenate(keys), return_inverse=True)
    where = numpy.split(line_of, numpy.cumsum([len(k) for k in keys])[:-1])
    totals_at, _, taken_at, _ = where
    # Counted once: each group's own counter, and a take's position and turn where 1-6, 1-8.
    positions = numbers(takes, "position")
    turns = numbers(takes, "turn")
    by_position = (positions >= 1) & (positions <= 6)
    on_turn = (turns >= 1) & (turns <= 8)
    ones = [
        at * WIDTH + group[3]
        for at, group in zip(where, groups, strict=True)
        if group[3] is not None
    ]
    ones += (
        taken_at[by_position] * WIDTH + AT_POSITION[positions[by_position]],
        taken_at[on_turn] * WIDTH + ON_TURN[turns[on_turn]],
    )
    summed_counters = (GROWS, GROW_ARCHAEA, TRIGGERS, TRIGGER_ARCHAEA, ATTACKS, DAMAGE)
    amounts = (  # (lines, counter, values)
        *(
            (totals_at, counter, numbers(totals, column, float))
            for column, counter in enumerate(summed_counters, start=2)
        ),
        (taken_at, POSITION, positions.astype(float)),
        (taken_at, PAID, numbers(takes, "paid", float)),
        (taken_at, FOUND, numbers(takes, "archaea", float)),
    )
    size = len(lines) * WIDTH
    counts = numpy.bincount(numpy.concatenate(ones), minlength=size).astype(float)
    counts += numpy.bincount(
        numpy.concatenate([at * WIDTH + counter for at, counter, _ in amounts]),
        weights=numpy.concatenate([values for _, _, values in amounts]),
        minlength=size,
    )
    counts = counts.reshape(-1, WIDTH)
    # The flags: owned (taken at all), early and late (taken on those turns), passed over
    # (offered, never taken: the player drafted something else); and what survived of a
    # hex owned by a seat still in play.
    seated = lines // len(names) if names else lines  # game * seats + seat, per line
    out = eliminated_games * seats + eliminated_seats
    taken = counts[:, TAKEN]
    owned = taken > 0
    counts[:, OWNED] = owned
    counts[:, EARLY] = counts[:, TAKEN_EARLY].any(axis=1)
    counts[:, LATE] = counts[:, TAKEN_LATE].any(axis=1)
    counts[:, PASSED] = ~owned & (counts[:, OFFERED] > 0)
    in_play = ~numpy.isin(seated, out)
    survived = numpy.maximum(0.0, taken - counts[:, DECIMATED])
    counts[:, SURVIVED] = numpy.where(owned & in_play, survived, 0.0)
    hex_names = numpy.array(names, dtype=object)[lines % len(names)] if names else lines
    seat_bytes = (seated % seats).astype(numpy.uint8)
    bounds = numpy.searchsorted(seated // seats, numpy.arange(len(games) + 1)).tolist()
    return [
        HexMatrix(seat_bytes[a:b].tobytes(), hex_names[a:b].tolist(), counts[a:b])
        for a, b in pairwise(bounds)
    ]


def deep_sea_adventure_round_lines(
    seats: list[SeatRow], facts: list[dict[str, Any]]
) -> list[RoundRow]:
    """Per seat and dive: points banked, drowned, and when it turned back (DSA-4)."""
    turned: dict[tuple[int, int], dict[str, Any]] = {}
    result = []
    for fact in facts:
        if fact.get("type") == "turn-back":
            turned[(fact["dive"], fact["seat"])] = fact
        elif fact.get("type") == "dive-end":
            drowned = set(fact["drowned"])
            for line in seats:
                turn = turned.get((fact["dive"], line.seat))
                result.append(
                    RoundRow(
                        seat=line.seat,
                        round=fact["dive"],
                        moment=turn["turn"] if turn else 0,
                        points=fact["points"][line.seat],
                        drowned=float(line.seat in drowned),
                        depth=turn["depth"] if turn else 0,
                    )
                )
    return result


def deep_dive_round_lines(seats: list[SeatRow], facts: list[dict[str, Any]]) -> list[RoundRow]:
    """Per seat and round: pearls won, caught by the shark (DD-3), and when it surfaced."""
    surfaced: dict[tuple[int, int], dict[str, Any]] = {}
    caught: set[tuple[int, int]] = set()
    rounds: list[dict[str, Any]] = []
    for fact in facts:
        kind = fact.get("type")
        if kind == "surface" and not fact.get("forced"):
            surfaced[(fact["round"], fact["seat"])] = fact
        elif kind == "shark":
            caught.update((fact["round"], hit["seat"]) for hit in fact["hits"])
        elif kind == "round":
            rounds.append(fact)
    result = []
    for fact in rounds:
        for line in seats:
            up = surfaced.get((fact["round"], line.seat))
            result.append(
                RoundRow(
                    seat=line.seat,
                    round=fact["round"],
                    moment=up["pass"] if up else 0,
                    points=fact["points"][line.seat],
                    drowned=float((fact["round"], line.seat) in caught),
                    depth=up["shells"] if up else 0,
                )
            )
    return result
