"""What the tournaments keep of a verified game beyond what the games app stores."""

from __future__ import annotations

from typing import Any

from engines.registry import get_game
from games.models import Game, Source
from tournaments.models import Elimination


def store_eliminations(sender: type, game: Game, **kwargs: Any) -> None:
    """game_verified: a table's result is always a tournament log (results.attach_log), so
    games of other sources cost nothing here. Which facts are eliminations is the engine's
    to say (Game.eliminations)."""
    if game.source == Source.TOURNAMENT:
        Elimination.objects.bulk_create(
            Elimination(game_id=game.pk, seat=seat, turn=turn)
            for seat, turn in get_game(game.game_type).eliminations(game.facts)
        )
