"""Edition data (DD-1): board sections, dice faces and the shell pool, from editions.json."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

KINDS = ("white", "black", "empty")
EDITIONS_FILE = Path(__file__).with_name("editions.json")


@dataclass(frozen=True)
class Edition:
    """One printing of the game: every number the rules need that is not in the text."""

    name: str
    section_shells: Mapping[str, int]  # colour -> shells drawn there, in board order
    colour_die: tuple[str, ...]
    shark_die: tuple[str, ...]
    pool: Mapping[str, int]  # kind -> shells of that kind in the box
    white_removed_by_players: Mapping[int, int]
    black_pearls_to_end: int

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> Edition:
        sections = {s["colour"]: int(s["shells"]) for s in data["sections"]}
        edition = cls(
            name=name,
            section_shells=sections,
            colour_die=tuple(data["colour_die"]),
            shark_die=tuple(data["shark_die"]),
            pool={kind: int(data["pool"][kind]) for kind in KINDS},
            white_removed_by_players={
                int(players): int(n) for players, n in data["white_removed_by_players"].items()
            },
            black_pearls_to_end=int(data["black_pearls_to_end"]),
        )
        edition.check()
        return edition

    def check(self) -> None:
        """Reject data the rules cannot run on (a die face with no section, an empty section)."""
        for die in (self.colour_die, self.shark_die):
            unknown = set(die) - set(self.section_shells)
            if unknown:
                raise ValueError(f"edition {self.name}: die faces without a section: {unknown}")
        if min(self.section_shells.values()) < 1:
            raise ValueError(f"edition {self.name}: every section draws at least one shell")
        for players, removed in self.white_removed_by_players.items():
            if not 0 <= removed <= self.pool["white"]:
                raise ValueError(f"edition {self.name}: {players} players remove {removed} white")

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.white_removed_by_players))

    def starting_pool(self, players: int) -> dict[str, int]:
        """The shells in play for a player count: the box minus the removed whites (DD-1)."""
        pool = dict(self.pool)
        pool["white"] -= self.white_removed_by_players[players]
        return pool

    def shark_hit_probability(self) -> Fraction:
        """Chance that the shark die shows the section a fresh colour-die roll lands in."""
        return sum(
            (
                Fraction(self.colour_die.count(colour), len(self.colour_die))
                * Fraction(self.shark_die.count(colour), len(self.shark_die))
                for colour in self.section_shells
            ),
            Fraction(0),
        )


@cache
def editions() -> dict[str, Edition]:
    """Every known edition by name."""
    data = json.loads(EDITIONS_FILE.read_text(encoding="utf-8"))
    return {name: Edition.from_json(name, spec) for name, spec in data.items()}
