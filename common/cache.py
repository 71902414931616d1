"""Rendered page fragments, cached per data version (the statistics and leaderboard pages).

Each game type has two versions in the cache: "stats" (the cubes) and "ratings" (Elo and
OpenSkill); stats/cache.py says which changes bump which. A fragment's key holds the version
current when it was read, so bumping a version retires every fragment built from older data
at once (they expire unread). Versions are bumped once the change has committed, never
before: a page read in between would cache the old data under the new version.

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

from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.db import transaction
from django.utils.safestring import SafeString, mark_safe

from common.outages import CACHE_UNREACHABLE
from engines.registry import GAMES

STATS = "stats"
RATINGS = "ratings"
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
    except CACHE_UNREACHABLE as error:
        logger.warning("page cache unreachable, %s rendered uncached: %s", name, error)
        return mark_safe(render())
    return kept(key, render)


def kept(
    key: str | Callable[[], str], render: Callable[[], str], seconds: int = FRAGMENT_SECONDS
) -> SafeString:
    """The cached HTML under `key`, a key naming its content's every input (so that it needs
    no version: the player's rating chart, keyed by a digest of its history's rows), rendered
    and stored when missing; rendered uncached while the cache is unreachable. `key` may be
    a function giving it, called only where the cache keeps anything: a digest of thousands
    of rows is some 0.4 ms a request, spent for nothing on a site with no cache (DummyCache)."""
    if keeps_nothing():
        return mark_safe(render())
    if callable(key):
        key = key()
    try:
        html = cache.get(key)
    except CACHE_UNREACHABLE as error:
        logger.warning("page cache unreachable, %s rendered uncached: %s", key, error)
        return mark_safe(render())
    if html is None:
        html = render()
        try:
            cache.set(key, html, timeout=seconds)
        except CACHE_UNREACHABLE as error:
            logger.warning("page cache unreachable, %s not stored: %s", key, error)
    return mark_safe(html)  # rendered by our own code, escaped there


def keeps_nothing() -> bool:
    """Whether the cache is Django's dummy one, which stores nothing (CACHES)."""
    return isinstance(caches[DEFAULT_CACHE_ALIAS], DummyCache)
