"""What the pages show of a table: seats with their results, and the bid record (DV-3)."""

from __future__ import annotations

from collections.abc import Iterable
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
    game = table.game
    return seats_shown(
        [(s.player, s.opening_bidder, s.hand_rank, s.hand_score) for s in table.seats.all()],
        None
        if game is None
        else [(g.seat, g.player_id, g.rank, g.score, g.summary) for g in game.seats.all()],
        # Stored at verification (tournaments.receivers): no facts to decode per table.
        {} if game is None else {e.seat: e.turn for e in game.tournament_eliminations.all()},
    )


def seats_shown(
    seated: Iterable[tuple[Player, bool, int | None, float | None]],
    game_seats: Iterable[tuple[int, int | None, int, float, dict | None]] | None,
    eliminated: dict[int, int],
) -> list[SeatView]:
    """seat_views from a table's seats (player, opening bidder, hand rank, hand score), its
    counted game's seats (seat, player id, rank, score, summary) or None, and the game's
    eliminations (seat: turn): what the tournament page reads for every table at once."""
    seats = {
        player.pk: SeatView(player, opening_bidder, rank, score)
        for player, opening_bidder, rank, score in seated
    }
    for seat, player_id, rank, score, summary in game_seats or ():
        view = seats.get(player_id)
        if view is None:
            continue
        view.rank, view.score = rank, score
        view.summary = summary
        view.eliminated_turn = eliminated.get(seat)
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
