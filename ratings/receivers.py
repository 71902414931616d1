"""Signal receivers: both run inside the verifying transaction and are idempotent."""

from games.models import Game
from ratings import services


def rate_verified_game(sender, game: Game, **kwargs) -> None:
    services.rate_game(game)


def unrate_retracted_game(sender, game: Game, **kwargs) -> None:
    services.retract_game(game)
