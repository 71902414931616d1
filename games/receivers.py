"""What the games app does when other apps' events touch its rows."""

from __future__ import annotations

from typing import Any

from games.models import GameSeat
from players.models import Player


def move_merged_seats(sender: type, keep: Player, duplicates: list[Player], **kwargs: Any) -> int:
    """players_merging: the duplicates' game seats become `keep`'s; returns how many moved."""
    return GameSeat.objects.filter(player__in=duplicates).update(player=keep)
