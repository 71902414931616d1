"""A verified game's statistics lines, derived from its seats and replay facts.

Facts are the engine's per-turn records (Game.facts, collected by replay). Seat and pair
lines are the same for every game; what else a game's facts give (Deep Vents: per-hex lines;
Deep Sea Adventure and Deep Dive: per-round lines) its adapter adds (stats/adapters.py).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils import timezone

from games.models import Game, GameSeat
from stats.adapters import adapter_for
from stats.models import (
    NO_BID,
    NO_TURN_ORDER,
    HexLine,
    PairLine,
    RoundLine,
    SeatLine,
)
from stats.services.bands import seat_bands
from stats.services.game_lines import HexRow


@dataclass
class GameLines:
    seats: list[SeatLine] = field(default_factory=list)
    pairs: list[PairLine] = field(default_factory=list)
    hexes: list[HexLine | HexRow] = field(default_factory=list)
    rounds: list[RoundLine] = field(default_factory=list)

    def by_model(self) -> dict[type, list]:
        return {
            SeatLine: self.seats,
            PairLine: self.pairs,
            HexLine: self.hexes,
            RoundLine: self.rounds,
        }


def month_of(moment: datetime.datetime) -> datetime.date:
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return datetime.date(local.year, local.month, 1)


def build_lines(
    game: Game,
    seats: Iterable[GameSeat] | None = None,
    bands: dict[int, str] | None = None,
) -> GameLines:
    """Every line of one game, unsaved (the caller saves seats first, then the rest).
    `bands` (seat -> band, from group_bands) saves reading the ratings again."""
    seats = sorted(seats if seats is not None else game.seats.all(), key=lambda s: s.seat)
    facts = game.facts or []
    lines = GameLines()
    winning_bid = NO_BID
    for fact in facts:
        if fact.get("type") == "turn-order" and fact.get("winning_bid") is not None:
            winning_bid = fact["winning_bid"]
            break
    month = month_of(game.played_at)
    expected = 1 / game.player_count
    if bands is None:
        bands = seat_bands(game, seats)
    for seat in seats:
        wins = 1.0 if seat.winner else 0.0
        lines.seats.append(
            SeatLine(
                game=game,
                seat=seat.seat,
                game_type=game.game_type,
                source=game.source,
                player_count=game.player_count,
                ruleset=game.ruleset,
                month=month,
                band=bands[seat.seat],
                strategy=seat.strategy,
                turn_order=seat.turn_order or NO_TURN_ORDER,
                winning_bid=winning_bid,
                score_bin=math.floor(seat.score),
                wins=wins,
                expected=expected,
                score=seat.score,
                score_sq=seat.score * seat.score,
                rank=seat.rank,
            )
        )
    for line in lines.seats:
        rank = seats[line.seat].rank
        for other in seats:
            if other.seat != line.seat:
                lines.pairs.append(
                    PairLine(
                        seat=line,
                        opponent=other.strategy,
                        ahead=int(rank < other.rank),
                        behind=int(rank > other.rank),
                    )
                )
    adapter_for(game.game_type).add_lines(lines, facts)
    return lines
