"""Merging duplicate players: each app moves its rows (games, seats, entries) to the one kept
through players_merging (players knows no other app), then the duplicates are deleted."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from common.database import hold_lock
from players.models import Player
from players.services import MERGE_LOCK
from players.signals import players_merged, players_merging


@transaction.atomic
def merge_players(keep: Player, duplicates: Iterable[Player]) -> int:
    """Move everything of `duplicates` to `keep` and delete them; the apps' receivers may
    refuse (ValidationError, nothing changed). Returns the number of game seats moved."""
    duplicates = [p for p in duplicates if p.pk != keep.pk]
    # After any game being stored under these players' ids is committed (MERGE_LOCK).
    hold_lock(MERGE_LOCK)
    answers = players_merging.send(sender=Player, keep=keep, duplicates=duplicates)
    moved = sum(answer for _, answer in answers if isinstance(answer, int))
    if keep.user_id is None:
        linked = next((p for p in duplicates if p.user_id is not None), None)
        if linked is not None:
            keep.user_id, linked.user_id = linked.user_id, None
            linked.save(update_fields=["user"])
            keep.save(update_fields=["user"])
    Player.objects.filter(pk__in=[p.pk for p in duplicates]).delete()
    players_merged.send(sender=Player, keep=keep)
    return moved
