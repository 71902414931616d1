"""Signal receivers: run inside the verifying transaction."""

from confirmations import services
from games.models import Game


def on_game_verified(sender: type, game: Game, group=None, **kwargs) -> None:
    if group is None:
        services.open_review(game)
    else:  # one look for the reviews and players of the whole group
        group.defer(services.open_reviews, game, group)
