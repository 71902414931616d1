"""A reverify that retracts a game (its log no longer verifies, or its scores changed) marks
the game's analyses stale: they describe a game the engines no longer derive."""

from django.dispatch import receiver

from analysis.models import Analysis
from games.signals import game_retracted


@receiver(game_retracted)
def mark_analyses_stale(sender, game, **kwargs) -> None:
    Analysis.objects.filter(log_id=game.log_id).update(stale=True)
