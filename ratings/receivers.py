"""Signal receivers: both run inside the transaction that changes the game, and are
idempotent. Neither rates there: the game joins the pending ones (services.py)."""

from games.models import Game
from ratings import services


def rate_verified_game(sender, game: Game, group=None, **kwargs) -> None:
    """The game counts now: pending, with the rest of the group when verification commits
    several games together (games.services.verification.VerifiedGroup)."""
    if group is None:
        services.add_pending([game])
    else:
        group.defer(services.add_pending, game)


def unrate_retracted_game(sender, game: Game, **kwargs) -> None:
    services.retract_game(game)
