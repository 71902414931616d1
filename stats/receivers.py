"""Signal receivers: each verified or retracted game moves the aggregates at once.

They run inside the verifying transaction, so a verdict and its statistics commit together.
"""

from games.models import Game
from stats.services.aggregate import add_game, remove_game


def on_game_verified(sender: type, game: Game, **kwargs) -> None:
    add_game(game)


def on_game_retracted(sender: type, game: Game, **kwargs) -> None:
    remove_game(game)
