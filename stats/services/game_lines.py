"""The statistics lines a game's replay facts give beyond seats and pairs: per hex (Deep
Vents), per dive (Deep Sea Adventure) and per round (Deep Dive). Each game's adapter
(stats/adapters.py) picks its builder.
"""

from __future__ import annotations

from collections import defaultdict, namedtuple
from typing import TYPE_CHECKING, Any, NamedTuple

from stats.models import HEX_COUNTERS

if TYPE_CHECKING:
    from stats.services.lines import SeatRow

EARLY_TURNS = frozenset(range(1, 4))  # a hex drafted on a player's turns 1-3 is "early"
LATE_TURNS = frozenset(range(6, 9))  # ... on turns 6-8 "late"

# An unsaved HexLine as a plain tuple: the seat's number in its game (save_lines stores the
# seat line's id), the hex type and the counters. A Deep Vents game has dozens, and building
# a model instance of some forty fields cost more than counting them.
HexRow = namedtuple("HexRow", ("seat", "hex", *HEX_COUNTERS))
# HexRow._make without its Python frame and length check (the rows are built right here).
new_row = tuple.__new__


class RoundRow(NamedTuple):
    """An unsaved RoundLine; `seat` is the seat's number in its game."""

    seat: int
    round: int
    moment: int
    points: float
    drowned: float
    depth: float


# Each counter's index in a row's counters (a list while the facts are counted).
AT = {name: index for index, name in enumerate(HEX_COUNTERS)}
OFFERED, TAKEN, POSITION, PAID, FOUND = (
    AT[n] for n in ("offered", "taken", "position", "paid", "found")
)
GROWS, GROW_ARCHAEA, TRIGGERS, TRIGGER_ARCHAEA = (
    AT[n] for n in ("grows", "grow_archaea", "triggers", "trigger_archaea")
)
ATTACKS, DAMAGE, DECIMATED, SURVIVED = (
    AT[n] for n in ("attacks", "damage", "decimated", "survived")
)
TAKEN_AT_POSITION = {p: AT[f"taken_p{p}"] for p in range(1, 7)}
TAKEN_ON_TURN = {t: AT[f"taken_t{t}"] for t in range(1, 9)}
# Each flag with its win-weighted and par-weighted twins.
OWNED, EARLY, LATE, PASSED = (
    tuple(AT[f"{flag}{suffix}"] for suffix in ("", "_wins", "_expected"))
    for flag in ("owned", "early", "late", "passed")
)


def deep_vents_hex_lines(seats: list[SeatRow], facts: list[dict[str, Any]]) -> list[HexRow]:
    """Per seat and hex type: drafting, win rates when owned or passed over, and use."""
    width = len(HEX_COUNTERS)
    counters: defaultdict[tuple[int, str], list[float]] = defaultdict(lambda: [0.0] * width)
    owned_turns: dict[tuple[int, str], list[int]] = defaultdict(list)
    eliminated: set[int] = set()
    for fact in facts:  # the commonest kinds first
        kind = fact["type"]
        if kind == "grow":
            c = counters[(fact["seat"], fact["hex"])]
            c[GROWS] += 1
            c[GROW_ARCHAEA] += fact["archaea"]
        elif kind == "take":
            seat = fact["seat"]
            for offered in fact["offered"]:  # the row as the taker saw it
                counters[(seat, offered)][OFFERED] += 1
            key = (seat, fact["hex"])
            c = counters[key]
            c[TAKEN] += 1
            c[POSITION] += fact["position"]
            c[PAID] += fact["paid"]
            c[FOUND] += fact["archaea"]
            if (at := TAKEN_AT_POSITION.get(fact["position"])) is not None:
                c[at] += 1
            if (on := TAKEN_ON_TURN.get(fact["turn"])) is not None:
                c[on] += 1
            owned_turns[key].append(fact["turn"])
        elif kind == "trigger":
            c = counters[(fact["seat"], fact["hex"])]
            c[TRIGGERS] += 1
            c[TRIGGER_ARCHAEA] += fact.get("collected", 0)
        elif kind == "attack" and fact.get("hex"):
            c = counters[(fact["attacker"], fact["hex"])]
            c[ATTACKS] += 1
            c[DAMAGE] += fact["damage"]
        elif kind == "decimate":
            counters[(fact["seat"], fact["hex"])][DECIMATED] += 1
        elif kind == "eliminated":
            eliminated.add(fact["seat"])
    result = []
    by_seat = {line.seat: line for line in seats}
    for (seat, hex_id), c in sorted(counters.items()):
        line = by_seat[seat]
        wins, expected = line.wins, line.expected
        turns = owned_turns.get((seat, hex_id))
        flags = []  # the flags this row raises; every other flag and its twins stay 0
        if turns:
            flags.append(OWNED)
            if not EARLY_TURNS.isdisjoint(turns):
                flags.append(EARLY)
            if not LATE_TURNS.isdisjoint(turns):
                flags.append(LATE)
            if seat not in eliminated:
                c[SURVIVED] = max(0.0, c[TAKEN] - c[DECIMATED])
        elif c[OFFERED]:
            flags.append(PASSED)  # offered, never taken: the player drafted something else
        for flag, flag_wins, flag_expected in flags:
            c[flag], c[flag_wins], c[flag_expected] = 1.0, wins, expected
        result.append(new_row(HexRow, (seat, hex_id, *c)))
    return result


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
