"""The statistics lines a game's replay facts give beyond seats and pairs: per hex (Deep
Vents), per dive (Deep Sea Adventure) and per round (Deep Dive). Each game's adapter
(stats/adapters.py) picks its builder.
"""

from __future__ import annotations

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
    """Per seat and hex type (a line each, in that order): drafting, owning or passing over,
    and use. Built as the matrix it is packed from, by numpy: the facts give some five
    hundred counts, but a game's eighty lines of 37 counters, built as rows of Python
    numbers and then turned into a matrix, took as long as a fifth of the replay (issue 25).
    Each count is a cell (line * WIDTH + counter) in `ones` (counted once) or in `cells`
    beside its amount, summed into the matrix by bincount."""
    lines: dict[tuple[int, str], int] = {}  # (seat, hex type) -> its line's first cell
    ones: list[int] = []
    cells: list[int] = []
    amounts: list[float] = []
    eliminated: set[int] = set()
    for fact in facts:  # the commonest kinds first
        kind = fact["type"]
        if kind == "grow":
            line = lines.setdefault((fact["seat"], fact["hex"]), len(lines) * WIDTH)
            ones.append(line + GROWS)
            cells.append(line + GROW_ARCHAEA)
            amounts.append(fact["archaea"])
        elif kind == "take":
            seat = fact["seat"]
            for offered in fact["offered"]:  # the row as the taker saw it
                ones.append(lines.setdefault((seat, offered), len(lines) * WIDTH) + OFFERED)
            line = lines.setdefault((seat, fact["hex"]), len(lines) * WIDTH)
            ones.append(line + TAKEN)
            if (at := TAKEN_AT_POSITION.get(fact["position"])) is not None:
                ones.append(line + at)
            if (on := TAKEN_ON_TURN.get(fact["turn"])) is not None:
                ones.append(line + on)
            cells += (line + POSITION, line + PAID, line + FOUND)
            amounts += (fact["position"], fact["paid"], fact["archaea"])
        elif kind == "trigger":
            line = lines.setdefault((fact["seat"], fact["hex"]), len(lines) * WIDTH)
            ones.append(line + TRIGGERS)
            cells.append(line + TRIGGER_ARCHAEA)
            amounts.append(fact.get("collected", 0))
        elif kind == "attack" and fact.get("hex"):
            line = lines.setdefault((fact["attacker"], fact["hex"]), len(lines) * WIDTH)
            ones.append(line + ATTACKS)
            cells.append(line + DAMAGE)
            amounts.append(fact["damage"])
        elif kind == "decimate":
            ones.append(
                lines.setdefault((fact["seat"], fact["hex"]), len(lines) * WIDTH) + DECIMATED
            )
        elif kind == "eliminated":
            eliminated.add(fact["seat"])
    size = len(lines) * WIDTH
    counts = numpy.bincount(numpy.array(ones, dtype=numpy.intp), minlength=size).astype(float)
    if cells:
        counts += numpy.bincount(
            numpy.array(cells, dtype=numpy.intp), weights=amounts, minlength=size
        )
    keys = sorted(lines)
    counts = counts.reshape(-1, WIDTH)[[lines[key] // WIDTH for key in keys]]
    # The flags: owned (taken at all), early and late (taken on those turns), passed over
    # (offered, never taken: the player drafted something else); and what survived of a
    # hex owned by a seat still in play.
    taken = counts[:, TAKEN]
    owned = taken > 0
    counts[:, OWNED] = owned
    counts[:, EARLY] = counts[:, TAKEN_EARLY].any(axis=1)
    counts[:, LATE] = counts[:, TAKEN_LATE].any(axis=1)
    counts[:, PASSED] = ~owned & (counts[:, OFFERED] > 0)
    in_play = numpy.array([seat not in eliminated for seat, _ in keys], dtype=bool)
    survived = numpy.maximum(0.0, taken - counts[:, DECIMATED])
    counts[:, SURVIVED] = numpy.where(owned & in_play, survived, 0.0)
    return HexMatrix(bytes(seat for seat, _ in keys), [hex_id for _, hex_id in keys], counts)


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
