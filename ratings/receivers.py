"""Signal receivers: the games' two run inside the transaction that changes the game, and are
idempotent. Neither rates there: the game joins the pending ones (services.py)."""

from games.models import Game, GameSeat
from players.models import Player
from ratings import services
from ratings.models import RatingLedger
from ratings.signals import ratings_changed


def rate_verified_game(sender, game: Game, group=None, **kwargs) -> None:
    """The game counts now: pending, with the rest of the group when verification commits
    several games together (games.services.verification.VerifiedGroup)."""
    if group is None:
        services.add_pending([game])
    else:
        group.defer(services.add_pending, game)


def unrate_retracted_game(sender, game: Game, **kwargs) -> None:
    services.retract_game(game)


def rerate_merged_player(sender, keep: Player, **kwargs) -> None:
    """players_merged: the game types the merged player played are rated again from scratch
    (their games now have one player where they had several)."""
    game_types = GameSeat.objects.filter(player=keep).values_list("game__game_type", flat=True)
    for game_type in sorted(set(game_types)):
        services.recompute(game_type)


def announce_ledger_saved(sender, instance: RatingLedger, **kwargs) -> None:
    """post_save of a ledger: saved when a recompute is queued and when it has run."""
    ratings_changed.send(sender=RatingLedger, game_type=instance.game_type)
