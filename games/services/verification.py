"""Turn a stored GameLog into a verified Game, or a rejected verdict, by replaying it.

Called by the Celery task with a log id. Safe to run twice or concurrently for the same
log: the verdict is written under a row lock and a log that already has one is left alone.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify

import engines
from engines.core.log import loads
from games.models import Game, GameLog, GameSeat, Source
from games.services.tables import table_of
from games.signals import game_verified
from tournaments.models import Player

logger = logging.getLogger(__name__)

FINAL_STATUSES = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED, GameLog.Status.ERROR)
HANDLE_LENGTH = Player._meta.get_field("handle").max_length


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
    if table_of(log) is not None:
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


def build_seats(game: Game, parsed: Mapping[str, Any], replayed: engines.Replay) -> list[GameSeat]:
    outcome = replayed.outcome
    turn_orders, bids = turn_orders_and_bids(replayed)
    names = [entry["name"] for entry in parsed["players"]]
    players = {} if game.source == Source.SIMULATED else players_for(names)
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


def player_handle(name: str) -> str:
    """The Player handle a log name maps to: its slug (names without latin letters keep a
    unicode slug, so two such players do not collapse into one)."""
    handle = slugify(name) or slugify(name, allow_unicode=True) or "player"
    return handle[:HANDLE_LENGTH].strip("-") or "player"


def players_for(names: list[str]) -> dict[str, Player]:
    """The Player for each log name, created on first sight. Concurrent creators meet the
    unique handle: the loser's insert is skipped and the winner's row read back."""
    handles = {name: player_handle(name) for name in names}
    wanted = set(handles.values())
    known = {p.handle: p for p in Player.objects.filter(handle__in=wanted)}
    missing = {handle: name for name, handle in handles.items() if handle not in known}
    if missing:
        Player.objects.bulk_create(
            [
                Player(handle=handle, display_name=name.strip()[:100] or name)
                for handle, name in missing.items()
            ],
            ignore_conflicts=True,
        )
        known.update((p.handle, p) for p in Player.objects.filter(handle__in=missing))
    return {name: known[handle] for name, handle in handles.items()}
