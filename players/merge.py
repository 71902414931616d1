"""Merging duplicate players: their games, seats and entries move to the one kept."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction

from games.models import GameSeat
from players.models import Player
from ratings.services import recompute
from tournaments.models import Registration, TableSeat


@transaction.atomic
def merge_players(keep: Player, duplicates: Iterable[Player]) -> int:
    """Move everything of `duplicates` to `keep`, delete them, and recompute the ratings of
    the game types they played. Returns the number of games moved."""
    duplicates = [p for p in duplicates if p.pk != keep.pk]
    ids = [p.pk for p in duplicates]
    clash = Registration.objects.filter(
        player_id__in=ids, tournament__registrations__player=keep
    ).select_related("tournament", "player")
    if clash:
        entry = clash[0]
        raise ValidationError(
            f"{entry.player} and {keep} are both entered in {entry.tournament}; "
            "they cannot be the same person"
        )
    game_types = set(
        GameSeat.objects.filter(player_id__in=[*ids, keep.pk]).values_list(
            "game__game_type", flat=True
        )
    )
    moved = GameSeat.objects.filter(player_id__in=ids).update(player=keep)
    TableSeat.objects.filter(player_id__in=ids).update(player=keep)
    Registration.objects.filter(player_id__in=ids).update(player=keep)
    if keep.user_id is None:
        linked = next((p for p in duplicates if p.user_id is not None), None)
        if linked is not None:
            keep.user_id, linked.user_id = linked.user_id, None
            linked.save(update_fields=["user"])
            keep.save(update_fields=["user"])
    Player.objects.filter(pk__in=ids).delete()
    for game_type in sorted(game_types):
        recompute(game_type)
    return moved
