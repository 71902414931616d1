"""Replay stored logs again with the current engines (`manage.py reverify`).

An engine fix can change a verdict or a score. Each change is recorded as a VerdictChange;
a game that no longer verifies is retracted (game_retracted, then deleted), and a game whose
scores changed is retracted and derived again (game_verified), so ratings and statistics
follow. Names with no player (a log rejected until now, or a merge took its player) are
created outside the log's transaction, as verification creates them (players_created_apart).
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

import engines
from engines.core.log import loads
from games.models import Game, GameLog, VerdictChange
from games.services.removal import retract_game
from games.services.verification import players_created_apart, store_game

REVERIFIABLE = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED)


def seat_results(game: Game | None) -> list[dict[str, Any]] | None:
    if game is None:
        return None
    return [
        {"seat": s.seat, "score": s.score, "rank": s.rank, "winner": s.winner}
        for s in game.seats.order_by("seat")
    ]


def reverify_log(log_id: int) -> VerdictChange | None:
    """Replay one verified or rejected log; returns the recorded change, or None."""
    return players_created_apart(functools.partial(reverified, log_id))


def reverified(log_id: int, create_players: bool) -> VerdictChange | None:
    """reverify_log's transaction (PlayersMissing without `create_players`: store_game)."""
    with transaction.atomic():
        log = GameLog.objects.select_for_update().get(pk=log_id)
        if log.status not in REVERIFIABLE:
            return None
        old_status = log.status
        old_game = Game.objects.filter(log=log).first()
        old_scores = seat_results(old_game)
        try:
            parsed = loads(log.raw)
            replayed = engines.replay(parsed, collect_facts=True, detail_facts=False)
        except engines.LogError as error:
            new_error = error.to_dict()
            if old_status == GameLog.Status.REJECTED:
                if log.error != new_error:
                    log.error = new_error
                    log.save(update_fields=["error"])
                return None
            retract_game(log)
            log.status, log.error = GameLog.Status.REJECTED, new_error
            log.save(update_fields=["status", "error", "status_changed"])
            return VerdictChange.objects.create(
                log=log, old_status=old_status, new_status=log.status, old_scores=old_scores,
                error=new_error,
            )  # fmt: skip
        new_scores = [
            {"seat": seat, "score": score, "rank": rank, "winner": seat in replayed.outcome.winners}
            for seat, (score, rank) in enumerate(
                zip(replayed.outcome.scores, replayed.outcome.ranks, strict=True)
            )
        ]
        if old_status == GameLog.Status.VERIFIED and new_scores == old_scores:
            return None
        retract_game(log)
        store_game(log, parsed, replayed, create_players)
        return VerdictChange.objects.create(
            log=log, old_status=old_status, new_status=log.status, old_scores=old_scores,
            new_scores=new_scores,
        )  # fmt: skip
