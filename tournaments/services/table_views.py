"""What the pages show of a table: seats with their results, and the bid record (DV-3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from players.models import Player
from tournaments.models import Table


@dataclass
class SeatView:
    player: Player
    opening_bidder: bool
    rank: int | None = None
    score: float | None = None
    summary: dict[str, int] | None = None  # the engine's (GameSeat.summary)
    eliminated_turn: int | None = None


def seat_views(table: Table) -> list[SeatView]:
    """The seated players, best placed first once there is a result."""
    seats = {
        s.player_id: SeatView(s.player, s.opening_bidder, s.hand_rank, s.hand_score)
        for s in table.seats.all()
    }
    game = table.game
    if game is not None:
        # Stored at verification (tournaments.receivers): no facts to decode per table.
        eliminated = {e.seat: e.turn for e in game.tournament_eliminations.all()}
        for game_seat in game.seats.all():
            view = seats.get(game_seat.player_id)
            if view is None:
                continue
            view.rank, view.score = game_seat.rank, game_seat.score
            view.summary = game_seat.summary
            view.eliminated_turn = eliminated.get(game_seat.seat)
    return sorted(seats.values(), key=lambda v: (v.rank is None, v.rank or 0, v.player.handle))


def bid_record(table: Table) -> list[dict[str, Any]]:
    """Every bid and pass at the table in order, from the verified game (DV-3)."""
    game = table.game
    if game is None:
        return []
    names = {s.seat: s.player or s.name for s in game.seats.all()}
    record = []
    for fact in game.facts:
        if fact.get("type") in ("bid", "pass"):
            record.append({**fact, "player": names.get(fact["seat"])})
        elif fact.get("type") == "turn-order":
            record.append({**fact, "player": names.get(fact["first_player"])})
            break
    return record
