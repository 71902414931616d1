"""The statistics lines a game's replay facts give beyond seats and pairs: per hex (Deep
Vents), per dive (Deep Sea Adventure) and per round (Deep Dive). Each game's adapter
(stats/adapters.py) picks its builder.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from stats.models import HEX_COUNTERS, RoundLine, SeatLine

EARLY_TURNS = range(1, 4)  # a hex drafted on a player's turns 1-3 is "early"
LATE_TURNS = range(6, 9)  # ... on turns 6-8 "late"


class HexRow:
    """An unsaved HexLine as a plain object with the same attributes: a Deep Vents game has
    dozens, and building a model instance of some forty fields cost more than counting them.
    save_lines inserts them as rows; lines read back from the database are HexLines."""

    __slots__ = ("seat", "hex", *HEX_COUNTERS)

    def __init__(self, seat: SeatLine, hex: str, counters: dict[str, float]) -> None:
        self.seat = seat
        self.hex = hex
        for name in HEX_COUNTERS:
            setattr(self, name, counters.get(name, 0.0))

    @property
    def seat_id(self) -> int | None:
        return self.seat.pk


def deep_vents_hex_lines(seats: list[SeatLine], facts: list[dict[str, Any]]) -> list[HexRow]:
    """Per seat and hex type: drafting, win rates when owned or passed over, and use."""
    counters: dict[tuple[int, str], defaultdict[str, float]] = defaultdict(
        lambda: defaultdict(float)
    )
    owned_turns: dict[tuple[int, str], list[int]] = defaultdict(list)
    seen: set[tuple[int, str]] = set()
    eliminated: set[int] = set()
    for fact in facts:
        kind = fact.get("type")
        if kind == "offer":
            for slot in fact["row"]:
                key = (fact["seat"], slot["hex"])
                counters[key]["offered"] += 1
                seen.add(key)
        elif kind == "take":
            key = (fact["seat"], fact["hex"])
            c = counters[key]
            c["taken"] += 1
            c["position"] += fact["position"]
            c["paid"] += fact["paid"]
            c["found"] += fact["archaea"]
            c[f"taken_p{fact['position']}"] += 1
            if 1 <= fact["turn"] <= 8:
                c[f"taken_t{fact['turn']}"] += 1
            owned_turns[key].append(fact["turn"])
        elif kind == "grow":
            c = counters[(fact["seat"], fact["hex"])]
            c["grows"] += 1
            c["grow_archaea"] += fact["archaea"]
        elif kind == "trigger":
            c = counters[(fact["seat"], fact["hex"])]
            c["triggers"] += 1
            c["trigger_archaea"] += fact.get("collected", 0)
        elif kind == "attack" and fact.get("hex"):
            c = counters[(fact["attacker"], fact["hex"])]
            c["attacks"] += 1
            c["damage"] += fact["damage"]
        elif kind == "decimate":
            counters[(fact["seat"], fact["hex"])]["decimated"] += 1
        elif kind == "eliminated":
            eliminated.add(fact["seat"])
    result = []
    by_seat = {line.seat: line for line in seats}
    for (seat, hex_id), c in sorted(counters.items()):
        line = by_seat[seat]
        turns = owned_turns.get((seat, hex_id), [])
        if turns:
            c["owned"] = 1
            c["early"] = float(any(t in EARLY_TURNS for t in turns))
            c["late"] = float(any(t in LATE_TURNS for t in turns))
            if seat not in eliminated:
                c["survived"] = max(0.0, c["taken"] - c["decimated"])
        elif (seat, hex_id) in seen:
            c["passed"] = 1  # offered, never taken: the player drafted something else
        for flag in ("owned", "passed", "early", "late"):
            c[f"{flag}_wins"] = c[flag] * line.wins
            c[f"{flag}_expected"] = c[flag] * line.expected
        result.append(HexRow(line, hex_id, c))
    return result


def deep_sea_adventure_round_lines(
    seats: list[SeatLine], facts: list[dict[str, Any]]
) -> list[RoundLine]:
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
                    RoundLine(
                        seat=line,
                        round=fact["dive"],
                        moment=turn["turn"] if turn else 0,
                        points=fact["points"][line.seat],
                        drowned=float(line.seat in drowned),
                        depth=turn["depth"] if turn else 0,
                    )
                )
    return result


def deep_dive_round_lines(seats: list[SeatLine], facts: list[dict[str, Any]]) -> list[RoundLine]:
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
                RoundLine(
                    seat=line,
                    round=fact["round"],
                    moment=up["pass"] if up else 0,
                    points=fact["points"][line.seat],
                    drowned=float((fact["round"], line.seat) in caught),
                    depth=up["shells"] if up else 0,
                )
            )
    return result
