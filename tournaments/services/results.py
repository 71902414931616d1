"""Table results: a log attached to the table (then verified), or a hand entry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from engines.core.errors import LogError
from engines.core.log import loads
from engines.registry import get_game
from games.models import GameLog, Source
from games.services.intake import submit_log
from games.services.verification import player_handle
from tournaments.models import Table


def seating_problem(table: Table, log: Mapping[str, Any]) -> str | None:
    """Why a parsed log cannot be this table's result, or None when it matches.

    The log must play the tournament's game and ruleset, its players must be the players
    seated at the table (matched by handle, as verification matches them), and its opening
    bidder the one drawn for the table (DV-3).
    """
    tournament = table.round.tournament
    if log.get("game") != tournament.game_type:
        return (
            f"the log is a {log.get('game')!r} game; this tournament plays {tournament.game_type}"
        )
    try:
        played = get_game(log["game"]).ruleset(log.get("ruleset")).name
    except LogError as error:
        return f"the log's ruleset: {error}"
    if played != tournament.ruleset:  # a log naming no ruleset plays the game's default
        return f"{table} plays the {tournament.ruleset} ruleset, not {played}"
    seats = list(table.seats.select_related("player"))
    seated = sorted(s.player.handle for s in seats)
    names = [p.get("name", "") for p in log.get("players", [])]
    in_log = sorted(player_handle(n) for n in names)
    if in_log != seated:
        return (
            f"the log's players ({', '.join(in_log)}) are not the players seated at "
            f"{table} ({', '.join(seated)})"
        )
    opener = next((s.player.handle for s in seats if s.opening_bidder), None)
    opening_seat = (log.get("setup") or {}).get("opening_bidder")
    if opener is not None and isinstance(opening_seat, int) and 0 <= opening_seat < len(names):
        logged = player_handle(names[opening_seat])
        if logged != opener:
            return (
                f"the log has {logged} open the bidding, but {opener} was drawn to open at "
                f"{table} [DV-3]"
            )
    return None


def attach_log(table: Table, raw: str | bytes, *, user: Any, filename: str = "") -> GameLog:
    """Check the log against the seating, then submit it as this table's result."""
    try:
        parsed = loads(raw)
    except LogError as error:
        raise ValidationError(f"not a log: {error}") from None
    if not isinstance(parsed, dict):
        raise ValidationError("not a log: a log is a JSON object")
    problem = seating_problem(table, parsed)
    if problem:
        raise ValidationError(problem)
    if table.log_id is not None:
        raise ValidationError(f"{table} already has a result log")
    return submit_log(raw, user=user, source=Source.TOURNAMENT, table=table, filename=filename)
