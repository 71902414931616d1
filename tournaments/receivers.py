"""What the tournaments keep of a verified game beyond what the games app stores."""

from __future__ import annotations

from typing import Any

from games.models import Game, Source
from tournaments.models import Elimination


def eliminations_of(game: Any) -> list[Elimination]:
    """The game's eliminations as rows, from its facts."""
    return [
        Elimination(game_id=game.pk, seat=fact["seat"], turn=fact["turn"])
        for fact in game.facts
        if fact.get("type") == "eliminated"
    ]


def store_eliminations(sender: type, game: Game, **kwargs: Any) -> None:
    """game_verified: a table's result is always a tournament log (results.attach_log), so
    games of other sources cost nothing here."""
    if game.source == Source.TOURNAMENT:
        Elimination.objects.bulk_create(eliminations_of(game))
