"""What the tournaments keep of a verified game beyond what the games app stores, and their
rows of merged players."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from engines.registry import get_game
from games.models import Game, Source
from players.models import Player
from tournaments.models import Elimination, Registration, TableSeat


def store_eliminations(sender: type, game: Game, **kwargs: Any) -> None:
    """game_verified: a table's result is always a tournament log (results.attach_log), so
    games of other sources cost nothing here. Which facts are eliminations is the engine's
    to say (Game.eliminations)."""
    if game.source == Source.TOURNAMENT:
        Elimination.objects.bulk_create(
            Elimination(game_id=game.pk, seat=seat, turn=turn)
            for seat, turn in get_game(game.game_type).eliminations(game.facts)
        )


def move_merged_entries(sender: type, keep: Player, duplicates: list[Player], **kwargs) -> None:
    """players_merging: the duplicates' entries and table seats become `keep`'s; two of them
    entered in one tournament are two people, and the merge is refused."""
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
    TableSeat.objects.filter(player_id__in=ids).update(player=keep)
    Registration.objects.filter(player_id__in=ids).update(player=keep)
