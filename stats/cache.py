"""Rendered fragments of the statistics and leaderboard pages, cached per data version.

Each game type has two versions in the cache: "stats" (the cubes) and "ratings" (Elo and
OpenSkill). A fragment's key holds the version current when it was read, so bumping a version
retires every fragment built from older data at once (they expire unread). Versions are bumped
once the change has committed, never before: a page read in between would cache the old data
under the new version.

The cache is an optimisation: while its server is unreachable, pages are rendered uncached and
bumps are skipped (with a warning each, no traceback), so neither a page nor a verification
fails with it. Only the server's connection errors are caught, never programming errors.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction
from django.utils.safestring import SafeString, mark_safe

from deepsea.outages import CACHE_UNREACHABLE
from engines.registry import GAMES
from games.models import Game, Source

STATS = "stats"
RATINGS = "ratings"
PLAYER_NAME_FIELDS = {"handle", "display_name"}
FRAGMENT_SECONDS = 24 * 3600  # a bound on memory; bumps, not this, keep fragments fresh

logger = logging.getLogger(__name__)


def version_key(scope: str, game_type: str) -> str:
    return f"version:{scope}:{game_type}"


def version(scope: str, game_type: str) -> str:
    """The current version; a random one when the cache has none (evicted, or a new cache)."""
    key = version_key(scope, game_type)
    current = cache.get(key)
    if current is None:
        cache.add(key, uuid.uuid4().hex, timeout=None)
        current = cache.get(key)
    return current


def bump(scope: str, game_type: str) -> None:
    bump_many(scope, [game_type])


def bump_all(scope: str) -> None:
    """Every game type's version: after rebuilding the cubes or recomputing the ratings."""
    bump_many(scope, list(GAMES))


def bump_many(scope: str, game_types: list[str]) -> None:
    """New versions for these game types, in one round trip. Bumps run once the change has
    committed, so an unreachable cache must not fail them: the change stays, and fragments
    cached before it may be served until they expire (FRAGMENT_SECONDS)."""
    versions = {version_key(scope, game_type): uuid.uuid4().hex for game_type in game_types}
    try:
        cache.set_many(versions, timeout=None)
    except CACHE_UNREACHABLE as error:
        logger.warning(
            "page cache unreachable, %s versions of %s not bumped: %s",
            scope,
            ", ".join(game_types),
            error,
        )


def bump_on_commit(scope: str, game_type: str) -> None:
    transaction.on_commit(lambda: bump(scope, game_type))


def fragment(
    scope: str, game_type: str, name: str, params: dict, render: Callable[[], str]
) -> SafeString:
    """The cached HTML of fragment `name` for these parameters (JSON-able values, dates
    included), rendered and stored when missing."""
    canonical = json.dumps(params, sort_keys=True, default=str)
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:32]
    try:
        key = f"fragment:{scope}:{game_type}:{version(scope, game_type)}:{name}:{digest}"
        html = cache.get(key)
    except CACHE_UNREACHABLE as error:
        logger.warning("page cache unreachable, %s rendered uncached: %s", name, error)
        return mark_safe(render())
    if html is None:
        html = render()
        try:
            cache.set(key, html, timeout=FRAGMENT_SECONDS)
        except CACHE_UNREACHABLE as error:
            logger.warning("page cache unreachable, %s not stored: %s", name, error)
    return mark_safe(html)  # rendered by our own templates, escaped there


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


def on_ledger_saved(sender: type, instance, **kwargs) -> None:
    """A rating ledger is saved when a recompute is queued and when it has run (the queued
    recompute commits apart from any game signal)."""
    bump_on_commit(RATINGS, instance.game_type)
