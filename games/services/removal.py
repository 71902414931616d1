"""Deleting a log (staff only): its game is retracted first so ratings and statistics undo it.
Setting a game aside (a tournament table's result undone) retracts it the same way but keeps
it, and its log, stored."""

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


def set_aside_game(log: GameLog) -> None:
    """The log's game stops counting for ratings, standings and statistics (game_retracted,
    as for a deleted game; then Game.counts is false), but stays stored, as its log does. A
    game that does not count changes nothing (inside the caller's transaction)."""
    game = Game.objects.select_for_update().filter(log=log, counts=True).first()
    if game is not None:
        game_retracted.send(sender=Game, game=game)
        Game.objects.filter(pk=game.pk).update(counts=False)


def delete_log(log_id: int) -> None:
    with transaction.atomic():
        log = GameLog.objects.select_for_update().filter(pk=log_id).first()
        if log is None:
            return
        retract_game(log)
        log.delete()
