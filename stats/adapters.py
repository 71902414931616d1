"""What the statistics know of each game, one adapter per game id (as engines/registry.py
keys the engines): which lines its replay facts give beyond seats and pairs, and the
strategy page's figures drawn from them, and what those figures need of the game's rules
(its hexes' names, its legal bids). Everything else is the same for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from engines.deep_vents.edition import editions
from engines.registry import GAMES
from stats import figures
from stats.filters import StatsFilter
from stats.services import compiled, fair_bid, strategies
from stats.services.game_lines import (
    RoundRow,
    deep_dive_round_lines,
    deep_sea_adventure_round_lines,
    deep_vents_hex_lines_of,
)

if TYPE_CHECKING:
    from stats.services.lines import GameLines, SeatRow


class DeepVentsStats:
    """Per-hex lines (the hex pages), and the first player's win rate by bid (DV-3)."""

    has_hexes = True

    @cache  # noqa: B019 (one adapter per game, alive as long as the process)
    def hex_names(self) -> dict[str, str]:
        """Every hex type of every edition: its id -> its name."""
        names: dict[str, str] = {}
        for edition in editions().values():
            names.update({hex_id: kind.name for hex_id, kind in edition.hexes.items()})
        return names

    def bid_limit(self, player_count: int) -> int:
        """The most anyone may bid at this table size in any edition: the base (DV-3)."""
        return max(e.bid_base.get(player_count, 0) for e in editions().values())

    def add_lines(self, lines: GameLines, facts: list[dict[str, Any]]) -> None:
        self.add_lines_of([lines], [facts])

    def add_lines_of(self, games: list[GameLines], facts: list[list[dict[str, Any]]]) -> None:
        """add_lines for many games, their hex lines counted together (game_lines)."""
        for lines, matrix in zip(games, deep_vents_hex_lines_of(facts), strict=True):
            lines.hexes = matrix

    def strategy_queries(self) -> tuple[compiled.Query, ...]:
        """The queries of strategy_charts, fetched with the page's (compiled.together)."""
        return (strategies.FIRST_PLAYER_BY_BID,)

    def strategy_charts(self, filters: StatsFilter, context: dict[str, Any]) -> list[str]:
        by_bid = strategies.first_player_by_bid(filters)
        context["fair_bids"] = fair_bid.fair_bids([row.point for row in by_bid], self.bid_limit)
        return [figures.bids(context["fair_bids"])] if by_bid else []


@dataclass(frozen=True)
class PushYourLuckStats:
    """Per-round lines: points, losses and when a seat chose to head back, and their figures.

    `unit` is what a round is called, `moment` what the moment of heading back counts, and
    `loss` what losing a round's haul is."""

    round_lines: Callable[[list[SeatRow], list[dict[str, Any]]], list[RoundRow]]
    unit: str
    moment: str
    loss: str
    has_hexes = False

    def add_lines(self, lines: GameLines, facts: list[dict[str, Any]]) -> None:
        lines.rounds = self.round_lines(lines.seats, facts)

    def add_lines_of(self, games: list[GameLines], facts: list[list[dict[str, Any]]]) -> None:
        for lines, game_facts in zip(games, facts, strict=True):
            self.add_lines(lines, game_facts)

    def strategy_queries(self) -> tuple[compiled.Query, ...]:
        """The queries of strategy_charts, fetched with the page's (compiled.together)."""
        return (strategies.ROUNDS_BY_STRATEGY, strategies.MOMENTS_BY_STRATEGY)

    def strategy_charts(self, filters: StatsFilter, context: dict[str, Any]) -> list[str]:
        rows = strategies.rounds_by_strategy(filters)
        if not rows:
            return []
        return [
            figures.rounds(rows, self.unit),
            figures.drowning(rows, self.unit, self.loss),
            figures.moments(strategies.moments_by_strategy(filters), self.moment),
        ]


DEEP_SEA_ADVENTURE = PushYourLuckStats(
    deep_sea_adventure_round_lines, "dive", "turn in the dive", "Drowning"
)
ADAPTERS: dict[str, DeepVentsStats | PushYourLuckStats] = {
    "deep-vents": DeepVentsStats(),
    "deep-sea-adventure": DEEP_SEA_ADVENTURE,
    "deep-sea-adventure-boost": DEEP_SEA_ADVENTURE,
    "deep-dive": PushYourLuckStats(
        deep_dive_round_lines, "round", "pass of the round", "Shark losses"
    ),
}


def adapter_for(game_id: str) -> DeepVentsStats | PushYourLuckStats:
    """The game's adapter; every game of engines/registry.py has one (a test checks)."""
    return ADAPTERS[game_id]


def hex_games() -> list[str]:
    """The games with per-hex statistics (the hex pages), in the registry's order."""
    return [game for game in GAMES if adapter_for(game).has_hexes]
