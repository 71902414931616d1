"""A verified game's statistics lines, derived from its seats and replay facts.

Facts are the engine's per-turn records (Game.facts, collected by replay). Seat lines are
the same for every game (the pair cube pairs them as it sums them); what else a game's facts give
(Deep Vents: per-hex lines; Deep Sea Adventure and Deep Dive: per-round lines) its adapter
adds (stats/adapters.py).

Lines are built as plain tuples (named, in the cubes' terms), never model instances: a
4-player Deep Vents game has some hundred of them, and save_lines packs them a game to a row
(stats.services.seat_packing, stats.services.hex_packing).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.utils import timezone

from engines.core.game import TURN_ORDER
from games.models import Game, GameSeat
from stats.adapters import adapter_for
from stats.models import NO_BID, NO_TURN_ORDER
from stats.services.bands import seat_bands
from stats.services.game_lines import RoundRow
from stats.services.hex_packing import HexMatrix


class SeatRow(NamedTuple):
    """One seat's line, as stats.services.seat_packing packs and unpacks it."""

    game_id: int
    seat: int
    game_type: str
    source: str
    player_count: int
    ruleset: str
    month: datetime.date
    band: str
    strategy: str
    turn_order: int
    winning_bid: int
    score_bin: int
    wins: float
    expected: float
    score: float
    score_sq: float
    rank: float
    # The seat's player (None for a bot's seat): the players' hex tally is keyed by it.
    player: int | None = None


@dataclass
class GameLines:
    seats: list[SeatRow] = field(default_factory=list)
    hexes: HexMatrix | None = None  # the games with per-hex lines (stats.adapters)
    rounds: list[RoundRow] = field(default_factory=list)


def month_of(moment: datetime.datetime, zone: datetime.tzinfo | None = None) -> datetime.date:
    """The month of the moment in `zone` (the current time zone when None)."""
    local = timezone.localtime(moment, zone) if timezone.is_aware(moment) else moment
    return datetime.date(local.year, local.month, 1)


def turn_orders_and_winning_bid(
    seats: list[GameSeat], facts: list[dict[str, Any]]
) -> tuple[dict[int, int], int]:
    """Each seat's turn order by seat number (NO_TURN_ORDER where it has none) and the
    game's winning bid (NO_BID without bidding): the one place the lines read them."""
    turn_orders = {
        seat.seat: (seat.summary or {}).get(TURN_ORDER) or NO_TURN_ORDER for seat in seats
    }
    winning_bid = NO_BID
    for fact in facts:
        if fact.get("type") == "turn-order" and fact.get("winning_bid") is not None:
            winning_bid = fact["winning_bid"]
            break
    return turn_orders, winning_bid


def build_lines(
    game: Game,
    seats: Iterable[GameSeat] | None = None,
    bands: dict[int, str] | None = None,
) -> GameLines:
    """Every line of one game, unsaved. `bands` (seat -> band, from group_bands) saves
    reading the ratings again."""
    lines = seat_lines(game, seats, bands)
    adapter_for(game.game_type).add_lines(lines, game.facts or [])
    return lines


def build_lines_of(games: list[Game], bands: dict[int, dict[int, str]]) -> list[GameLines]:
    """build_lines of many games (their seats prefetched, their bands from group_bands):
    each game type's lines from the facts built for all its games at once (issue 25)."""
    # The current time zone read once: reading it is most of a game's month_of.
    zone = timezone.get_current_timezone()
    built = [seat_lines(game, None, bands[game.pk], zone) for game in games]
    of_type: dict[str, list[int]] = {}
    for at, game in enumerate(games):
        of_type.setdefault(game.game_type, []).append(at)
    for game_type, ats in of_type.items():
        adapter_for(game_type).add_lines_of(
            [built[at] for at in ats], [games[at].facts or [] for at in ats]
        )
    return built


def seat_lines(
    game: Game,
    seats: Iterable[GameSeat] | None,
    bands: dict[int, str] | None,
    zone: datetime.tzinfo | None = None,
) -> GameLines:
    """A game's lines with its seat lines only: what every game has; its month in `zone`
    (the current time zone when None)."""
    seats = sorted(seats if seats is not None else game.seats.all(), key=lambda s: s.seat)
    facts = game.facts or []
    lines = GameLines()
    turn_orders, winning_bid = turn_orders_and_winning_bid(seats, facts)
    month = month_of(game.played_at, zone)
    expected = 1 / game.player_count
    if bands is None:
        bands = seat_bands(game, seats)
    for seat in seats:
        score = float(seat.score)
        lines.seats.append(
            SeatRow(
                game_id=game.pk,
                seat=seat.seat,
                game_type=game.game_type,
                source=game.source,
                player_count=game.player_count,
                ruleset=game.ruleset,
                month=month,
                band=bands[seat.seat],
                strategy=seat.strategy,
                turn_order=turn_orders[seat.seat],
                winning_bid=winning_bid,
                score_bin=math.floor(score),
                wins=1.0 if seat.winner else 0.0,
                expected=expected,
                score=score,
                score_sq=score * score,
                rank=float(seat.rank),
                player=seat.player_id,
            )
        )
    return lines
