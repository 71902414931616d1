"""Batches of bot games: planned here, played in chunks by Celery workers, fed to intake.

The games go through the same path as any upload (games.services.intake.submit_batch with
source "simulated", then verification on a worker), so they reach the statistics only once
verified. Game i of a batch is fully determined by (seed, i), whichever chunk plays it.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from celery import group, shared_task
from django.db import transaction
from django.db.models import Count, F

from engines.core.bots import drawable
from engines.core.errors import UnsupportedRulesetError
from engines.core.simulate import game_rng, simulate_game
from engines.registry import get_game
from games.models import GameLog, Source
from games.services.intake import submit_batch
from stats.models import SimulationBatch

DEFAULT_CHUNK = 200
MAX_GAMES = 200_000
MAX_TABLES = 5_000


def plan_tables(
    game_id: str, players: int, strategies: list[str] | None, all_combinations: bool
) -> list[list[str]]:
    """The tables the batch cycles through: one given line-up, every combination of the
    game's strategies, or (neither) a random line-up per game (an empty list)."""
    game = get_game(game_id)
    if not game.min_players <= players <= game.max_players:
        raise UnsupportedRulesetError(
            f"{game_id} takes {game.min_players}-{game.max_players} players, not {players}"
        )
    if all_combinations:
        names = drawable(game.strategies)
        tables = [list(c) for c in combinations_with_replacement(names, players)]
        if len(tables) > MAX_TABLES:
            raise UnsupportedRulesetError(f"{len(tables)} combinations is over {MAX_TABLES}")
        return tables
    if not strategies:
        return []
    unknown = [s for s in strategies if s not in game.strategies]
    if unknown:
        raise UnsupportedRulesetError(
            f"unknown strategy {unknown[0]!r} for {game_id}; known: {', '.join(game.strategies)}"
        )
    if len(strategies) != players:
        raise UnsupportedRulesetError(f"{len(strategies)} strategies for {players} players")
    return [list(strategies)]


def default_ruleset(game_id: str) -> str:
    return get_game(game_id).default_ruleset


def create_batch(
    *,
    game_id: str,
    ruleset: str,
    players: int,
    games: int,
    strategies: list[str] | None = None,
    all_combinations: bool = False,
    seed: str = "",
    chunk_size: int = DEFAULT_CHUNK,
    user: Any = None,
) -> SimulationBatch:
    """Check and store a batch; `launch` queues it once the row is committed. Without a
    seed the batch gets a fresh one: the same seed would replay games already stored."""
    game = get_game(game_id)
    game.ruleset({"name": ruleset})  # raises UnsupportedRulesetError naming the known ones
    if not 1 <= games <= MAX_GAMES:
        raise UnsupportedRulesetError(f"games must be 1 to {MAX_GAMES}, not {games}")
    tables = plan_tables(game_id, players, strategies, all_combinations)
    return SimulationBatch.objects.create(
        game_type=game_id,
        ruleset=ruleset,
        player_count=players,
        tables=tables,
        games=games,
        seed=seed or secrets.token_hex(8),
        chunk_size=max(1, chunk_size),
        created_by=user if user is not None and user.is_authenticated else None,
    )


def chunks(batch: SimulationBatch) -> list[tuple[int, int]]:
    return [
        (start, min(batch.chunk_size, batch.games - start))
        for start in range(0, batch.games, batch.chunk_size)
    ]


def launch(batch: SimulationBatch) -> None:
    """Queue the batch as a Celery group of chunks, after the current transaction commits."""
    SimulationBatch.objects.filter(pk=batch.pk).update(status=SimulationBatch.Status.RUNNING)
    work = group(simulate_chunk_task.si(batch.pk, start, count) for start, count in chunks(batch))
    transaction.on_commit(work.apply_async)


def batch_logs(batch: SimulationBatch, start: int, count: int) -> list[str]:
    game = get_game(batch.game_type)
    ruleset = game.ruleset({"name": batch.ruleset})
    logs = []
    for index in range(start, start + count):
        rng = game_rng(batch.seed, index)
        if batch.tables:
            table = batch.tables[index % len(batch.tables)]
        else:
            table = [rng.choice(drawable(game.strategies)) for _ in range(batch.player_count)]
        log = simulate_game(game, ruleset, table, rng)
        # Game i of a seed is the same game in any batch: a repeated seed adds nothing new.
        log["meta"] = {"simulation": {"seed": batch.seed, "index": index}}
        logs.append(json.dumps(log, separators=(",", ":")))
    return logs


def run_chunk(batch_id: int, start: int, count: int) -> None:
    """Play games start..start+count-1 of a batch and hand them to intake."""
    batch = SimulationBatch.objects.get(pk=batch_id)
    try:
        logs = batch_logs(batch, start, count)
    except Exception as exc:
        SimulationBatch.objects.filter(pk=batch_id).update(
            status=SimulationBatch.Status.FAILED, error=f"games {start}+: {exc}"
        )
        raise
    upload = submit_batch(
        (line.encode() for line in logs),
        user=batch.created_by,
        source=Source.SIMULATED,
        # The upload's name on its pages: its batch by when it was launched (not its id),
        # and which of its games, counted from 1.
        filename=f"lab batch of {batch.launched}, games {start + 1}-{start + count}",
    )
    batch.uploads.add(upload)
    SimulationBatch.objects.filter(pk=batch_id).update(submitted=F("submitted") + count)


def progress(batch: SimulationBatch) -> dict[str, Any]:
    """How far the batch is: games handed in, and verdicts reached."""
    statuses = Counter(
        dict(
            GameLog.objects.filter(upload__simulations=batch)
            .values_list("status")
            .annotate(n=Count("pk"))
        )
    )
    duplicates = sum(len(u.duplicates) for u in batch.uploads.all())
    finished = (
        statuses[GameLog.Status.VERIFIED]
        + statuses[GameLog.Status.REJECTED]
        + statuses[GameLog.Status.ERROR]
        + duplicates
    )
    if batch.status == SimulationBatch.Status.RUNNING and finished >= batch.games:
        SimulationBatch.objects.filter(pk=batch.pk).update(status=SimulationBatch.Status.DONE)
        batch.status = SimulationBatch.Status.DONE
    return {
        "batch": batch.pk,
        "status": batch.status,
        "games": batch.games,
        "submitted": batch.submitted,
        "verified": statuses[GameLog.Status.VERIFIED],
        "rejected": statuses[GameLog.Status.REJECTED],
        "errors": statuses[GameLog.Status.ERROR],
        "duplicates": duplicates,
        "finished": finished,
        "percent": round(100 * finished / batch.games, 1) if batch.games else 100.0,
        "error": batch.error,
    }


@shared_task(name="stats.tasks.simulate_chunk_task")
def simulate_chunk_task(batch_id: int, start: int, count: int) -> None:
    run_chunk(batch_id, start, count)
