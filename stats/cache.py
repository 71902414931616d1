"""When cached page fragments go stale (the cache itself: common/cache.py).

A verified or retracted game moves its game type's statistics, and its ratings unless only
bots played; ratings changed (ratings.signals.ratings_changed) and a renamed, merged or
deleted player move the leaderboards. Connected in StatsConfig.ready().
"""

from __future__ import annotations

from django.db import transaction

from common.cache import RATINGS, STATS, bump_all, bump_many, bump_on_commit
from games.models import Game, Source

PLAYER_NAME_FIELDS = {"handle", "display_name"}


def on_game_changed(sender: type, game: Game, group=None, **kwargs) -> None:
    """game_verified / game_retracted: the games' statistics move, and their ratings unless
    played by bots only (simulated seats have no player, so nobody is rated). A group of
    games verified together bumps each version once."""
    if group is None:
        bump_games_on_commit([game])
    else:
        group.defer(bump_games_on_commit, game)


def bump_games_on_commit(games: list[Game]) -> None:
    stats = sorted({game.game_type for game in games})
    rated = sorted({game.game_type for game in games if game.source != Source.SIMULATED})

    def bump_both() -> None:
        bump_many(STATS, stats)
        if rated:
            bump_many(RATINGS, rated)

    transaction.on_commit(bump_both)


def on_player_changed(
    sender: type, instance, created: bool = False, update_fields=None, **kwargs
) -> None:
    """A renamed, merged or deleted player: every leaderboard shows players' names. A new
    player is on no leaderboard yet, and a save of other fields shows nowhere there."""
    if created or (update_fields is not None and not PLAYER_NAME_FIELDS & set(update_fields)):
        return
    transaction.on_commit(lambda: bump_all(RATINGS))


def on_ratings_changed(sender: type, game_type: str, **kwargs) -> None:
    """ratings_changed: sent when a recompute is queued and when it has run (the queued
    recompute commits apart from any game signal)."""
    bump_on_commit(RATINGS, game_type)
