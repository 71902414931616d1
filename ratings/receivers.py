"""Signal receivers: both run inside the verifying transaction and are idempotent."""

from games.models import Game
from ratings import services


def rate_verified_game(sender, game: Game, group=None, **kwargs) -> None:
    """Rate at once, or with the rest of the group when verification commits several games
    together (games.services.verification.VerifiedGroup)."""
    if group is None:
        services.rate_game(game)
    else:
        group.defer(services.rate_games, game)


def unrate_retracted_game(sender, game: Game, **kwargs) -> None:
    services.retract_game(game)
