"""Edition data (DSA-1, B-1) from editions.json, and the setup it allows."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

from engines.core.errors import MalformedLogError

# A treasure chip is (level, value); levels count from 1 (nearest the submarine).
Chip = tuple[int, int]
Dice = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Edition:
    """The numbers of one printing: chip values by level, air, dives and dice."""

    name: str
    air: int
    dives: int
    stack_size: int
    levels: tuple[tuple[int, ...], ...]  # levels[L - 1]: the values of the level-L chips
    dice: Dice
    boost_dice: Dice | None

    def path_levels(self) -> list[int]:
        """The level of each path space, from the submarine outwards (DSA-1)."""
        return [level for level, values in enumerate(self.levels, 1) for _ in values]

    def deal(self, rng: random.Random) -> list[int]:
        """Shuffle each level's chips and lay them out in path order."""
        dealt: list[int] = []
        for values in self.levels:
            level = list(values)
            rng.shuffle(level)
            dealt.extend(level)
        return dealt

    def chips_from_setup(self, values: Sequence[Any]) -> list[Chip]:
        """Check a setup's dealt values against this edition (DSA-1)."""
        levels = self.path_levels()
        if len(values) != len(levels):
            raise MalformedLogError(
                f"{len(values)} chip values given; the path has {len(levels)} chips "
                f"({', '.join(f'{len(v)} of level {n}' for n, v in enumerate(self.levels, 1))})",
                field="setup.chips",
                rule="DSA-1",
            )
        for index, (level, value) in enumerate(zip(levels, values, strict=True)):
            allowed = self.levels[level - 1]
            if value not in allowed:
                raise MalformedLogError(
                    f"{value} is not a level-{level} chip value "
                    f"(level {level}: {min(allowed)}-{max(allowed)})",
                    field=f"setup.chips[{index}]",
                    rule="DSA-1",
                )
        start = 0
        for level, allowed in enumerate(self.levels, 1):
            dealt = values[start : start + len(allowed)]
            if Counter(dealt) != Counter(allowed):
                raise MalformedLogError(
                    f"the level-{level} values {sorted(dealt)} are not the edition's "
                    f"{sorted(allowed)}",
                    field="setup.chips",
                    rule="DSA-1",
                )
            start += len(allowed)
        return list(zip(levels, values, strict=True))


def _dice(data: Sequence[Sequence[int]]) -> Dice:
    return tuple(tuple(faces) for faces in data)


@cache
def editions() -> Mapping[str, Edition]:
    """Every registered edition by name."""
    data = json.loads((Path(__file__).parent / "editions.json").read_text(encoding="utf-8"))
    return {
        name: Edition(
            name=name,
            air=entry["air"],
            dives=entry["dives"],
            stack_size=entry["stack_size"],
            levels=tuple(tuple(values) for values in entry["levels"]),
            dice=_dice(entry["dice"]),
            boost_dice=_dice(entry["boost_dice"]) if "boost_dice" in entry else None,
        )
        for name, entry in data.items()
    }


@cache
def roll_outcomes(dice: Dice) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every face combination of these dice (in die order) with its probability."""
    odds: dict[tuple[int, ...], Fraction] = {}
    per_die = [
        {face: Fraction(count, len(faces)) for face, count in Counter(faces).items()}
        for faces in dice
    ]
    for faces in product(*(sorted(die) for die in per_die)):
        chance = Fraction(1)
        for die, face in zip(per_die, faces, strict=True):
            chance *= die[face]
        odds[faces] = chance
    return tuple((faces, float(chance)) for faces, chance in odds.items())
