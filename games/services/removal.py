"""Deleting a log (staff only): its game is retracted first so ratings and statistics undo it."""

from __future__ import annotations

from django.db import transaction

from games.models import Game, GameLog
from games.signals import game_retracted


def retract_game(log: GameLog) -> None:
    """Send game_retracted for the log's game, then delete the game (inside the caller's
    transaction)."""
    game = Game.objects.filter(log=log).first()
    if game is not None:
        game_retracted.send(sender=Game, game=game)
        game.delete()


def delete_log(log_id: int) -> None:
    with transaction.atomic():
        log = GameLog.objects.select_for_update().filter(pk=log_id).first()
        if log is None:
            return
        retract_game(log)
        log.delete()
