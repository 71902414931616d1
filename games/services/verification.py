"""Turn a stored GameLog into a verified Game, or a rejected verdict, by replaying it.

Called by the Celery tasks with a log id (`verify_log`) or the ids of a part of a batch
(`verify_logs`). Safe to run twice or concurrently for the same log: the verdict is written
under a row lock and a log that already has one is left alone.

A batch's logs are replayed then committed in groups: one transaction stores a group's
games, and receivers of game_verified may defer their work to the end of it (VerifiedGroup)
to do it once for the group (statistics move each cube row once, ratings lock once).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, prefetch_related_objects
from django.utils import timezone
from django.utils.dateparse import parse_datetime

import engines
from engines.core.log import loads
from games.models import Game, GameLog, GameSeat, Source
from games.services.tables import table_desk
from games.signals import game_verified
from players.models import Player
from players.services import players_for

logger = logging.getLogger(__name__)

FINAL_STATUSES = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED, GameLog.Status.ERROR)
# Logs of a batch committed per transaction: few enough that a verdict is not held back
# long, enough that the per-transaction costs (commit, cube rows, ratings lock) are shared.
GROUP_SIZE = 50

Outcome = tuple[Mapping[str, Any], engines.Replay] | dict[str, Any]  # replayed, or an error


class VerifiedGroup:
    """Games verified in one transaction. A game_verified receiver given `group` may call
    `group.defer(function, game)`: function(games) then runs once for the group's games, in
    the order first deferred, before the transaction commits."""

    def __init__(self) -> None:
        self.deferred: dict[Callable[[list[Game]], None], list[Game]] = {}

    def defer(self, function: Callable[[list[Game]], None], game: Game) -> None:
        self.deferred.setdefault(function, []).append(game)

    def finish(self) -> None:
        for function, games in self.deferred.items():
            function(games)


def max_attempts() -> int:
    return settings.GAMES_VERIFY_MAX_ATTEMPTS


def verify_log(log_id: int) -> GameLog:
    """Replay one stored log and record its verdict (see the module docstring)."""
    log = begin_attempt(log_id)
    if log.status != GameLog.Status.VERIFYING:
        return log
    try:
        parsed = loads(log.raw)
        replayed = engines.replay(parsed, collect_facts=True)
    except engines.LogError as error:
        return record_rejection(log_id, error.to_dict())
    except Exception:
        # An engine bug, not the log's fault: the attempt counts, the sweep tries again.
        release_attempt(log_id)
        raise
    return record_game(log_id, parsed, replayed)


def verify_logs(log_ids: Sequence[int]) -> None:
    """Replay many stored logs, recording verdicts a group at a time.

    Logs still queued are claimed at once (one committed UPDATE counts their attempt). Any
    other (already verifying: an earlier attempt was interrupted, or the sweep re-queued it)
    goes through `verify_log` alone, so a log that kills workers cannot use up its
    neighbours' attempts. An engine failure on one log puts it back in the queue for the
    sweep; the others still get their verdicts, then the failure is raised.
    """
    claimed = claim(log_ids)
    for log_id in log_ids:
        if log_id not in claimed:
            verify_log(log_id)
    failures: list[Exception] = []
    ordered = [log_id for log_id in log_ids if log_id in claimed]
    for start in range(0, len(ordered), GROUP_SIZE):
        outcomes: dict[int, Outcome] = {}
        for log_id, raw in GameLog.objects.filter(
            pk__in=ordered[start : start + GROUP_SIZE]
        ).values_list("pk", "raw"):
            try:
                parsed = loads(raw)
                outcomes[log_id] = (parsed, engines.replay(parsed, collect_facts=True))
            except engines.LogError as error:
                outcomes[log_id] = error.to_dict()
            except Exception as error:
                logger.exception("log %s: replay failed", log_id)
                release_attempt(log_id)
                failures.append(error)
        record_group(outcomes)
    if failures:
        raise failures[0]


def claim(log_ids: Sequence[int]) -> set[int]:
    """Mark the queued logs among these as verifying, counting an attempt; returns them."""
    with transaction.atomic():
        due = list(
            GameLog.objects.select_for_update(skip_locked=True)
            .filter(pk__in=log_ids, status=GameLog.Status.QUEUED, attempts__lt=max_attempts())
            .values_list("pk", flat=True)
        )
        GameLog.objects.filter(pk__in=due).update(
            status=GameLog.Status.VERIFYING,
            attempts=F("attempts") + 1,
            status_changed=timezone.now(),
        )
    return set(due)


def record_group(outcomes: Mapping[int, Outcome]) -> None:
    """Store the verdicts of a group of logs in one transaction (logs that got a verdict
    meanwhile are left alone)."""
    if not outcomes:
        return
    with transaction.atomic():
        logs = list(
            GameLog.objects.select_for_update(of=("self",))
            .select_related("upload", "table")
            .filter(pk__in=list(outcomes))
            .order_by("pk")
        )
        verified = []
        for log in logs:
            if log.status in FINAL_STATUSES:
                continue
            outcome = outcomes[log.pk]
            if isinstance(outcome, dict):
                log.status = GameLog.Status.REJECTED
                log.error = outcome
                log.verified_at = timezone.now()
                log.save(update_fields=["status", "error", "verified_at", "status_changed"])
            else:
                verified.append(log)
        store_games(verified, outcomes)


def store_games(logs: list[GameLog], outcomes: Mapping[int, Outcome]) -> list[Game]:
    """store_game for many logs at once: bulk inserts, then game_verified for each game
    with a VerifiedGroup, whose deferred work runs last. The caller holds the logs' locks."""
    if not logs:
        return []
    names = [
        entry["name"]
        for log in logs
        if game_source(log) != Source.SIMULATED
        for entry in outcomes[log.pk][0]["players"]
    ]
    players = players_for(names) if names else {}
    games = [build_game(log, *outcomes[log.pk]) for log in logs]
    Game.objects.bulk_create(games)
    GameSeat.objects.bulk_create(
        seat for game in games for seat in build_seats(game, *outcomes[game.log.pk], players)
    )
    prefetch_related_objects(games, "seats")  # one query, read by every receiver
    now = timezone.now()
    GameLog.objects.filter(pk__in=[log.pk for log in logs]).update(
        status=GameLog.Status.VERIFIED, error=None, verified_at=now, status_changed=now
    )
    group = VerifiedGroup()
    for game in games:
        game_verified.send(sender=Game, game=game, group=group)
    group.finish()
    return games


def begin_attempt(log_id: int) -> GameLog:
    """Mark the log as verifying and count the attempt, committed before the replay starts,
    so a worker killed mid-replay leaves a trace the next attempt sees. One UPDATE when the
    log is due, which is nearly always."""
    started = GameLog.objects.filter(
        pk=log_id,
        status__in=[GameLog.Status.QUEUED, GameLog.Status.VERIFYING],
        attempts__lt=max_attempts(),
    ).update(
        status=GameLog.Status.VERIFYING, attempts=F("attempts") + 1, status_changed=timezone.now()
    )
    if started:
        return GameLog.objects.get(pk=log_id)
    with transaction.atomic():
        log = GameLog.objects.select_for_update().get(pk=log_id)
        if log.status in FINAL_STATUSES:
            return log
        message = f"verification failed {log.attempts} times without a verdict"
        log.status = GameLog.Status.ERROR
        log.error = {"kind": "error", "message": message, "text": message}
        log.save(update_fields=["status", "error", "status_changed"])
        logger.error("log %s given up after %s attempts", log_id, log.attempts)
        return log


def release_attempt(log_id: int) -> None:
    """After an unexpected failure: back to queued, so the periodic sweep retries it."""
    GameLog.objects.filter(pk=log_id, status=GameLog.Status.VERIFYING).update(
        status=GameLog.Status.QUEUED, status_changed=timezone.now()
    )


def record_rejection(log_id: int, error: dict[str, Any]) -> GameLog:
    with transaction.atomic():
        log = GameLog.objects.select_for_update().get(pk=log_id)
        if log.status in FINAL_STATUSES:
            return log
        log.status = GameLog.Status.REJECTED
        log.error = error
        log.verified_at = timezone.now()
        log.save(update_fields=["status", "error", "verified_at", "status_changed"])
    return log


def record_game(log_id: int, parsed: Mapping[str, Any], replayed: engines.Replay) -> GameLog:
    """Store the Game and its seats, mark the log verified and tell other apps: all at once."""
    with transaction.atomic():
        log = (
            GameLog.objects.select_for_update(of=("self",))
            .select_related("upload", "table")
            .get(pk=log_id)
        )
        if log.status in FINAL_STATUSES:
            return log
        store_game(log, parsed, replayed)
    return log


def store_game(log: GameLog, parsed: Mapping[str, Any], replayed: engines.Replay) -> Game:
    """Save the derived Game and seats, mark the log verified, send game_verified.
    The caller holds the log's row lock inside a transaction."""
    game = build_game(log, parsed, replayed)
    game.save()
    GameSeat.objects.bulk_create(build_seats(game, parsed, replayed))
    log.status = GameLog.Status.VERIFIED
    log.error = None
    log.verified_at = timezone.now()
    log.save(update_fields=["status", "error", "verified_at", "status_changed"])
    game_verified.send(sender=Game, game=game)
    return game


def game_source(log: GameLog) -> str:
    """simulated for bot runs, tournament when a table holds the log, else the upload's."""
    if log.upload.source == Source.SIMULATED:
        return Source.SIMULATED
    if table_desk().holds(log):
        return Source.TOURNAMENT
    return log.upload.source


def played_at(log: GameLog, parsed: Mapping[str, Any]) -> datetime:
    """meta.played_at or meta.date when it is a valid date/time, else when it was uploaded."""
    meta = parsed.get("meta") or {}
    for key in ("played_at", "date"):
        value = meta.get(key)
        if isinstance(value, str):
            try:
                moment = parse_datetime(value) or parse_datetime(f"{value}T00:00:00")
            except ValueError:
                moment = None
            if moment is not None:
                if timezone.is_naive(moment):
                    moment = timezone.make_aware(moment, timezone.get_default_timezone())
                return moment
    return log.created


def build_game(log: GameLog, parsed: Mapping[str, Any], replayed: engines.Replay) -> Game:
    ruleset = replayed.ruleset
    return Game(
        log=log,
        game_type=replayed.game.id,
        ruleset=ruleset.name,
        ruleset_options=dict(ruleset.options),
        edition=ruleset.edition,
        player_count=len(parsed["players"]),
        source=game_source(log),
        played_at=played_at(log, parsed),
        termination=replayed.outcome.termination,
        facts=replayed.facts or [],
    )


def build_seats(
    game: Game,
    parsed: Mapping[str, Any],
    replayed: engines.Replay,
    players: Mapping[str, Player] | None = None,
) -> list[GameSeat]:
    """The game's seats; `players` maps log names to Players (looked up when not given)."""
    outcome = replayed.outcome
    turn_orders, bids = turn_orders_and_bids(replayed)
    if game.source == Source.SIMULATED:
        players = {}
    elif players is None:
        players = players_for([entry["name"] for entry in parsed["players"]])
    seats = []
    for seat, entry in enumerate(parsed["players"]):
        seats.append(
            GameSeat(
                game=game,
                seat=seat,
                player=players.get(entry["name"]),
                name=entry["name"],
                strategy=entry.get("strategy", ""),
                score=outcome.scores[seat],
                rank=outcome.ranks[seat],
                winner=seat in outcome.winners,
                turn_order=turn_orders.get(seat),
                bid=bids.get(seat),
            )
        )
    return seats


def turn_orders_and_bids(replayed: engines.Replay) -> tuple[dict[int, int], dict[int, int]]:
    """Position in turn order (1 = first) and highest bid per seat, for games that have them.

    Deep Vents exposes both in its snapshot (`order`, `bids`; DV-3); the others do not.
    """
    snapshot = replayed.state.snapshot()
    order = snapshot.get("order") or []
    turn_orders = {seat: position for position, seat in enumerate(order, start=1)}
    bids: dict[int, int] = {}
    for bid in snapshot.get("bids") or []:
        if "amount" in bid:
            bids[bid["seat"]] = max(bid["amount"], bids.get(bid["seat"], bid["amount"]))
    return turn_orders, bids
