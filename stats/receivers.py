"""Signal receivers: each verified or retracted game moves the aggregates at once.

They run inside the verifying transaction, so a verdict and its statistics commit together.
When verification commits several games together it hands a `group`: their lines are then
added in one go, each cube row moving once for all of them.
"""

from games.models import Game
from stats.services.aggregate import add_game, add_games, remove_game


def on_game_verified(sender: type, game: Game, group=None, **kwargs) -> None:
    if group is None:
        add_game(game)
    else:
        group.defer(add_games, game)


def on_game_retracted(sender: type, game: Game, **kwargs) -> None:
    remove_game(game)
