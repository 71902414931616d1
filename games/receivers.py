"""What the games app does when other apps' events touch its rows."""

from __future__ import annotations

from typing import Any

from games.models import GameSeat
from games.signals import game_seats_merged
from players.models import Player


def move_merged_seats(sender: type, keep: Player, duplicates: list[Player], **kwargs: Any) -> int:
    """players_merging: the duplicates' game seats become `keep`'s, and the apps keeping rows
    of them hear which games' (game_seats_merged); returns how many seats moved."""
    seats = GameSeat.objects.filter(player__in=duplicates)
    games = sorted(set(seats.values_list("game_id", flat=True)))
    moved = seats.update(player=keep)
    game_seats_merged.send(sender=GameSeat, keep=keep, duplicates=duplicates, games=games)
    return moved
