"""Signal receivers: run inside the verifying transaction."""

from confirmations import services
from games.models import Game


def on_game_verified(sender: type, game: Game, group=None, **kwargs) -> None:
    services.open_review(game, group)
