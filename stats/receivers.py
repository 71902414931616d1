"""Signal receivers: each verified or retracted game moves the aggregates at once.

They run inside the verifying transaction, so a verdict and its statistics commit together:
the game's lines and its cube deltas, appended rows that no other worker waits for (folded
into the cubes later, read by pages meanwhile: stats/services/aggregate.py). When verification
commits several games together it hands a `group`: their lines and deltas are then added in
one go.
"""

from games.models import Game
from players.models import Player
from stats.services.aggregate import (
    add_game,
    add_games,
    move_merged_players,
    move_merged_seat_tally,
    remove_game,
)
from stats.services.rebanding import reband


def on_game_verified(sender: type, game: Game, group=None, **kwargs) -> None:
    if group is None:
        add_game(game)
    else:
        group.defer(add_games, game)


def on_game_retracted(sender: type, game: Game, **kwargs) -> None:
    remove_game(game)


def on_game_seats_merged(
    sender: type, keep: Player, duplicates: list[Player], games: list[int], **kwargs
) -> None:
    """The packed seat lines' players (of the games whose seats moved) and the players' hex
    and seat tallies follow a merge."""
    moved = [player.pk for player in duplicates]
    move_merged_players(keep.pk, moved, games)
    move_merged_seat_tally(keep.pk, moved)


def on_elo_going_in_moved(
    sender: type, game_type: str, moved: dict, newly_rated: dict, **kwargs
) -> None:
    """A ratings catch-up moved the Elo some seats went into their games with: their bands
    follow, in the rater's transaction (stats.services.rebanding)."""
    reband(game_type, moved, newly_rated)
