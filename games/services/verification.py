"""Turn a stored GameLog into a verified Game, or a rejected verdict, by replaying it.

Called by the Celery tasks with a log id (`verify_log`) or the ids of a part of a batch
(`verify_logs`). Safe to run twice or concurrently for the same log: the verdict is written
under a row lock and a log that already has one is left alone.

A batch's logs are replayed then committed in groups: one transaction stores a group's
games, and receivers of game_verified may defer their work to the end of it (VerifiedGroup)
to do it once for the group (statistics move each cube row once, ratings lock once).
"""

from __future__ import annotations

import functools
import gc
import logging
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from operator import itemgetter
from typing import Any, NamedTuple

import orjson
from celery import Task, shared_task
from django.db import connection, transaction
from django.db.models import Model, QuerySet
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from psycopg.types.json import Jsonb

import engines
from common.compiled import compile_once
from common.database import any_of, insert_instances, insert_rows
from common.outages import INFRASTRUCTURE_ERRORS, retry_after_outage
from engines.core.log import loads
from games.models import Game, GameLog, GameSeat, Source
from games.services.dispatch import Dispatch
from games.services.table_desk import table_desk
from games.signals import game_verified
from players.services import PlayersMissing, create_missing_players, player_ids_for

logger = logging.getLogger(__name__)

# Logs of a batch committed per transaction: few enough that a verdict is not held back
# long, enough that the per-transaction costs (commit, cube rows, ratings lock) are shared.
# What a group holds never shows on a page (a seat's band, new players' ids: see
# create_players_first and ratings.services.running_elo). 100 rather than 50 (issue 25,
# benchmarks/worker_cost.py, 1,000 logs, medians, load 3-9): CPU 2.20 ms a log against
# 2.60, 0.43 queries a log against 0.79. 200 gave 2.04 ms, but a task that long holds
# single logs back (p95 1.3-1.4 s against 0.4-0.7: intake.VERIFY_CHUNK).
GROUP_SIZE = 100


# What storing a group's verdicts never reads, and would otherwise read again per log: the
# raw logs (replayed already) and a batch's lists of bad and repeated lines (up to 1 MB).
UNREAD_WHEN_STORING = ("raw", "upload__line_errors", "upload__duplicates")


class Failure:
    """An unexpected exception while verifying one log, recorded as its `error` verdict."""

    def __init__(self, message: str) -> None:
        self.message = message


class Replayed(NamedTuple):
    """What a group keeps of a log's replay until the group is stored (held): what
    build_game and build_seats read of an engines.Replay, the seats' summaries in place of
    the game's final state."""

    game: engines.Game
    ruleset: engines.Ruleset
    outcome: engines.Outcome
    facts: list[dict[str, Any]] | None
    summaries: dict[int, Any]


# Replayed, rejected (the LogError's dict) or failed (an unexpected exception).
Outcome = tuple[Mapping[str, Any], engines.Replay | Replayed] | dict[str, Any] | Failure


class VerifiedGroup:
    """Games verified in one transaction. A game_verified receiver given `group` may call
    `group.defer(function, game, *args)`: function(games, *args) then runs once for the
    group's games (per function and args), in the order first deferred, before the
    transaction commits. Work deferred while the group finishes (by a deferred function
    that sends a signal) runs after the work that deferred it."""

    def __init__(self) -> None:
        self.deferred: dict[tuple, list[Game]] = {}
        self.done: set[tuple] = set()

    def defer(self, function: Callable[..., None], game: Game, *args: Any) -> None:
        key = (function, *args)
        if key in self.done:
            raise RuntimeError(f"{function.__name__} ran already for this group")
        self.deferred.setdefault(key, []).append(game)

    def finish(self) -> None:
        while waiting := [key for key in self.deferred if key not in self.done]:
            for key in waiting:
                self.done.add(key)
                function, *args = key
                function(self.deferred[key], *args)


def new_holder() -> str:
    """A lease holder for a verification run outside a Celery task."""
    return f"direct-{uuid.uuid4()}"


def replay_raw(raw: str, detail_facts: bool = False) -> tuple[dict[str, Any], engines.Replay]:
    """Read one stored log and replay it with the facts statistics need: all of a
    verification that is not the database (benchmarks/replay.py times exactly this). The
    game's detail facts, which only its page reads, only when asked (Game.detail_facts).

    A batch's read parsed this log already (intake.screen), in another task, perhaps on
    another machine, and parsing it again here is cheaper than any form it could hand over
    (11 KB logs, CPU, 2026-12-06, issue 25: `loads` 0.084 ms, orjson.loads alone 0.070;
    pickle.loads of the parsed log 0.086-0.108, marshal.loads 0.062-0.075, each stored
    beside the log and written by the read). Nor can the read skip it: a line that is not
    JSON, or not this format, is refused there with the exact reader's message."""
    parsed = loads(raw)
    return parsed, engines.replay(parsed, collect_facts=True, detail_facts=detail_facts)


def verify_log(log_id: int, holder: str | None = None, resume: bool = False) -> GameLog:
    """Replay one stored log alone and record its verdict (see the module docstring).

    `holder` is the Celery task id of the run (see GameLog.objects.claim_alone for it and
    `resume`). A database or broker error is raised for the task to retry; any other
    exception is this log's doing (an engine bug it triggers, content the database refuses)
    and ends it `error` at once, with the exception's message.
    """
    holder = holder or new_holder()
    log = GameLog.objects.claim_alone(log_id, holder, resume=resume)
    if log.status != GameLog.Status.VERIFYING or log.lease_holder != holder:
        return log  # final already, or another worker's
    try:
        parsed, replayed = replay_raw(log.raw)
        return record_game(log_id, parsed, replayed)
    except engines.LogError as error:
        return record_rejection(log_id, error.to_dict())
    except INFRASTRUCTURE_ERRORS:
        raise
    except Exception as error:
        return record_failure(log_id, error)


def verify_logs(log_ids: Sequence[int], holder: str | None = None, resume: bool = False) -> None:
    """Replay many stored logs together, recording verdicts a group at a time.

    The queued ones are claimed together, counting no attempt. Those this task itself still
    holds (an earlier delivery of it died with them) are sent again in halves (retry_in_halves), so
    that a log that kills workers ends up alone and only then uses up its attempts, never
    its neighbours'.
    """
    holder = holder or new_holder()
    claimed = GameLog.objects.claim_together(list(log_ids), holder, resume=resume)
    died_with = [log_id for log_id in log_ids if log_id not in claimed]
    if died_with:
        retry_in_halves(
            GameLog.objects.filter(
                pk__in=died_with, status=GameLog.Status.VERIFYING, lease_holder=holder
            )
        )
    ordered = [log_id for log_id in log_ids if log_id in claimed]
    for start in range(0, len(ordered), GROUP_SIZE):
        if start:  # the first group's leases were given by the claim, just now
            GameLog.objects.renew_leases(ordered[start:], holder)
        with collector_paused():
            verify_group(ordered[start : start + GROUP_SIZE])


def verify_group(log_ids: list[int]) -> None:
    """Replay a group of claimed logs, then store their verdicts together."""
    outcomes: dict[int, Outcome] = {}
    names: dict[int, list[str]] = {}
    compiled = compile_once("group logs", GameLog, group_logs, {"log_ids": [-32_123]})
    rows = group_logs(log_ids) if compiled is None else compiled.rows({"log_ids": log_ids})
    for log_id, raw, source in rows:
        try:
            outcomes[log_id] = parsed, _ = held(*replay_raw(raw))
        except engines.LogError as error:
            outcomes[log_id] = error.to_dict()
        except Exception as error:
            outcomes[log_id] = failure(error)
        else:
            if source != Source.SIMULATED:
                names[log_id] = [entry["name"] for entry in parsed["players"]]
    # In the order the games are stored (by log id), not the rows' order, which is the
    # database's: new players are created as their names are first met.
    create_players_first([name for log_id in sorted(names) for name in names[log_id]])
    record_group(outcomes)


def held(
    parsed: dict[str, Any], replayed: engines.Replay
) -> tuple[dict[str, Any], engines.Replay | Replayed]:
    """A replayed log as its group holds it until the group is stored: without its events
    and the game's final state, which nothing reads after the replay but the seats'
    summaries (taken now). Let go of while they are fresh in the processor's cache, rather
    than a group's hundred at once after storing it: replaying groups of 100 and letting
    them go took 0.289 ms a log against 0.325 (300 bot games, 12 rounds alternated, each
    lower by 0.017-0.066, load 2.7-3.2, issue 25). A game whose summary fails is held
    whole, so that it fails where it always did, in the group's storing."""
    try:
        summaries = replayed.game.seat_summary(replayed.state)
    except Exception:
        return parsed, replayed
    parsed.pop("events", None)
    return parsed, Replayed(
        replayed.game, replayed.ruleset, replayed.outcome, replayed.facts, summaries
    )


def group_logs(log_ids: list[int]) -> QuerySet:
    """(id, raw log, its upload's source) of a group's logs: read for every group, so
    compiled once (common.compiled)."""
    return GameLog.objects.filter(any_of("pk", log_ids)).values_list("pk", "raw", "upload__source")


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection while a group is verified. Its logs, replays, games and lines
    (tens of thousands of objects) live until it is stored, and every pass of the collector
    meanwhile walked them again. Once the group is done they are freed by their reference
    counts, so the pass that follows finds little; what is left in cycles (a game with its
    log and seats, a board's tiles) waits for it, a group's worth at most. The collector's
    CPU went from 0.40 to 0.15 ms a log (benchmarks/worker_cost.py, issue 25)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# Names this process has read players' ids for (store_games): a group whose every name is
# here has no new player to create ahead of it, and skips that read (a group's names read
# twice, 0.07 ms a log: issue 25). Only a shortcut: the group's own read, in its
# transaction, still finds or creates every player, so a name whose player has gone since
# (a merge) is created there, as it would be without this. Forgotten when it grows large.
NAMES_WITH_PLAYERS: set[str] = set()
MOST_NAMES_KEPT = 100_000


def create_players_first(names: list[str]) -> None:
    """The group's new players, committed before its transaction (players.services says
    why), in the order their names are met (players_for creates them so): the same ids and
    handles however many logs a group holds. A name the database refuses is left to the
    group's own attempt, which then stores each log alone and ends that one `error`."""
    names = [name for name in names if name not in NAMES_WITH_PLAYERS]
    if not names:
        return
    try:
        create_missing_players(names)
    except INFRASTRUCTURE_ERRORS:
        raise
    except Exception:
        logger.exception("new players of a group could not be created ahead of it")


def record_group(outcomes: Mapping[int, Outcome]) -> None:
    """Store the verdicts of a group of logs in one transaction (logs that got a verdict
    meanwhile are left alone). When the database refuses the group for something one log
    holds (not an outage), each is recorded alone, and that one ends `error`."""
    try:
        record_together(outcomes)
    except INFRASTRUCTURE_ERRORS:
        raise
    except Exception:
        logger.exception(
            "a group of %s logs could not be stored; storing each alone", len(outcomes)
        )
        for log_id, outcome in outcomes.items():
            try:
                record_together({log_id: outcome})
            except INFRASTRUCTURE_ERRORS:
                raise
            except Exception as error:
                record_failure(log_id, error)


# Tries at a group's transaction. One that meets a name with no player (create_players_first
# failed, or a merge took the player since) ends before storing anything, and the names are
# created in a short transaction of their own before the next; the last try creates what is
# still missing itself (a merge took a player again meanwhile) rather than fail the group.
STORE_TRIES = 2


def players_created_apart[T](store: Callable[[bool], T]) -> T:
    """store(create_players), a transaction storing games, tried up to STORE_TRIES times:
    the new players it meets are created outside it. Creating holds
    players.services.CREATION_LOCK until the transaction ends, and every other worker
    meeting a new name would wait for this one's storing, statistics and all, instead of
    for an insert of a few players. They are created in the order the store meets them, as
    create_players_first creates them, so the same players (ids, handles) come of it
    (players_for's order; tests/games/test_a_seats_band_does_not_depend_on_how_many_games_
    are_verified_together.py)."""
    for _attempt in range(STORE_TRIES - 1):
        try:
            return store(False)
        except PlayersMissing as missing:
            create_missing_players(missing.names)
    return store(True)


def record_together(outcomes: Mapping[int, Outcome]) -> None:
    """Store these verdicts in one transaction (record_group), new players created outside
    it (players_created_apart). In record_group's fallback (a log alone) just the same."""
    if not outcomes:
        return
    games = players_created_apart(functools.partial(stored_together, outcomes))
    for game in games:
        # A stored game is in reference cycles (with its log and its prefetched seats), so
        # its facts, hundreds of objects, would wait for the garbage collector, which walks
        # them all once more: let go of them now (about 0.3 ms a log).
        game.facts = None


def stored_together(outcomes: Mapping[int, Outcome], create_players: bool) -> list[Game]:
    """The verdicts stored in one transaction; the games stored. Without `create_players`,
    PlayersMissing (nothing stored) when a verified log names someone with no player."""
    with transaction.atomic():
        logs = list(
            GameLog.objects.select_for_update(of=("self",))
            .select_related("upload", "table")
            .defer(*UNREAD_WHEN_STORING)
            .filter(any_of("pk", list(outcomes)))
            .order_by("pk")
        )
        verified = []
        for log in logs:
            if log.status in GameLog.FINAL:
                continue
            outcome = outcomes[log.pk]
            if isinstance(outcome, Failure):
                log.fail(outcome.message)
            elif isinstance(outcome, dict):
                log.reject(outcome)
            else:
                verified.append(log)
        return store_games(verified, outcomes, create_players)


def store_games(
    logs: list[GameLog], outcomes: Mapping[int, Outcome], create_players: bool = True
) -> list[Game]:
    """store_game for many logs at once: bulk inserts, then game_verified for each game
    with a VerifiedGroup, whose deferred work runs last. The caller holds the logs' locks.
    Without `create_players`, a name with no player raises PlayersMissing before anything
    is stored (player_ids_for)."""
    if not logs:
        return []
    games = [build_game(log, *outcomes[log.pk]) for log in logs]
    players = seated_players([(game, outcomes[game.log.pk][0]) for game in games], create_players)
    if len(NAMES_WITH_PLAYERS) > MOST_NAMES_KEPT:
        NAMES_WITH_PLAYERS.clear()
    NAMES_WITH_PLAYERS.update(players)
    insert_instances(Game, games)
    seats = {game.pk: build_seats(game, *outcomes[game.log.pk], players) for game in games}
    insert_seats([seat for built in seats.values() for seat in built])
    for game in games:
        # Every receiver reads them: handed over as built, as a prefetch would leave them
        # (reading 200 seats back built as many instances again: issue 25).
        seated(game, seats[game.pk])
    GameLog.objects.filter(any_of("pk", [log.pk for log in logs])).mark_verified()
    group = VerifiedGroup()
    for game in games:
        game_verified.send(sender=Game, game=game, group=group)
    group.finish()
    return games


# A seat summary's JSON, as json.dumps wrote it for the JSONField (keys that are not text
# written as text), in C: 1.1 us a seat against 4.6 (issue 25). PostgreSQL's jsonb keeps the
# value, not its spelling, so the rows stored are the same.
SUMMARY_JSON = functools.partial(orjson.dumps, option=orjson.OPT_NON_STR_KEYS)


def insert_seats(seats: list[GameSeat]) -> None:
    """insert_instances(GameSeat, seats), their rows read straight from the instances (a
    C call a seat) rather than field by field: every value is one PostgreSQL takes as it
    is (an aware played_at), but the summary, sent as its JSONField sends it (a Jsonb,
    NULL for None) but written by orjson (SUMMARY_JSON)."""
    if connection.vendor != "postgresql":
        insert_instances(GameSeat, seats)
        return
    values = itemgetter(*SEAT_FIELDS)
    played_at = GameSeat._meta.get_field("played_at").get_db_prep_save
    rows = []
    for seat in seats:
        game_id, player_id, moment, *rest, summarised = values(seat.__dict__)
        if moment.tzinfo is None:  # never from played_at(); prepared as Django would
            moment = played_at(moment, connection)
        summary = None if summarised is None else Jsonb(summarised, dumps=SUMMARY_JSON)
        rows.append((game_id, player_id, moment, *rest, summary))
    insert_rows(GameSeat, SEAT_FIELDS, rows)
    for seat in seats:  # saved, as insert_instances leaves them
        seat._state.adding = False
        seat._state.db = connection.alias


def seated(game: Game, seats: list[GameSeat]) -> None:
    """`game.seats.all()` gives these stored seats (in seat order) without a query, as
    prefetch_related_objects(games, "seats") leaves it (Django's prefetch_one_level)."""
    stored = game.seats.all()
    stored._result_cache = seats
    stored._prefetch_done = True
    game._prefetched_objects_cache = {"seats": stored}


def failure(error: Exception) -> Failure:
    if isinstance(error, INFRASTRUCTURE_ERRORS):
        raise error
    logger.error("verification failed", exc_info=error)
    return Failure(f"verification failed: {type(error).__name__}: {error}"[:1000])


def record_failure(log_id: int, error: Exception) -> GameLog:
    """An unexpected exception verifying this log: it ends `error` with the exception."""
    message = failure(error).message
    with transaction.atomic():
        log = GameLog.objects.select_for_update().get(pk=log_id)
        if log.status not in GameLog.FINAL:
            log.fail(message)
    return log


def record_rejection(log_id: int, error: dict[str, Any]) -> GameLog:
    with transaction.atomic():
        log = GameLog.objects.select_for_update().get(pk=log_id)
        if log.status not in GameLog.FINAL:
            log.reject(error)
    return log


def record_game(log_id: int, parsed: Mapping[str, Any], replayed: engines.Replay) -> GameLog:
    """Store the Game and its seats, mark the log verified and tell other apps: all at once,
    the log's new players created outside that transaction (players_created_apart). None
    is created ahead of it, as a group's are (create_players_first): a known name (the
    usual case) then costs no read more, a new one a try that ends before storing anything."""
    return players_created_apart(functools.partial(recorded_game, log_id, parsed, replayed))


def recorded_game(
    log_id: int, parsed: Mapping[str, Any], replayed: engines.Replay, create_players: bool
) -> GameLog:
    """record_game's transaction (PlayersMissing without `create_players`: store_game)."""
    with transaction.atomic():
        log = (
            GameLog.objects.select_for_update(of=("self",))
            .select_related("upload", "table")
            .get(pk=log_id)
        )
        if log.status in GameLog.FINAL:
            return log
        store_game(log, parsed, replayed, create_players)
    return log


def store_game(
    log: GameLog, parsed: Mapping[str, Any], replayed: engines.Replay, create_players: bool = True
) -> Game:
    """Save the derived Game and seats, mark the log verified, send game_verified.
    The caller holds the log's row lock inside a transaction. Without `create_players`, a
    name with no player raises PlayersMissing before anything is stored (player_ids_for)."""
    game = build_game(log, parsed, replayed)
    players = seated_players([(game, parsed)], create_players)
    game.save()
    GameSeat.objects.bulk_create(build_seats(game, parsed, replayed, players))
    log.mark_verified()
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


def seated_players(games: Sequence[tuple[Game, Mapping[str, Any]]], create: bool) -> dict[str, int]:
    """Player ids of the names seated in these games (built, with their parsed logs), but
    simulated games' (their seats name bots). Without `create`, a name with no player
    raises PlayersMissing (player_ids_for)."""
    names = [
        entry["name"]
        for game, parsed in games
        if game.source != Source.SIMULATED
        for entry in parsed["players"]
    ]
    return player_ids_for(names, create=create) if names else {}


def build_game(
    log: GameLog, parsed: Mapping[str, Any], replayed: engines.Replay | Replayed
) -> Game:
    ruleset = replayed.ruleset
    game = unsaved(
        Game,
        GAME_FIELDS,
        (
            None,
            log.pk,
            replayed.game.id,
            ruleset.name,
            dict(ruleset.options),
            ruleset.edition,
            len(parsed["players"]),
            game_source(log),
            played_at(log, parsed),
            replayed.outcome.termination,
            True,
        ),
    )
    game.log = log  # as Game(log=log): the log cached on the game, and the game on the log
    game.facts = replayed.facts or []
    return game


GAME_FIELDS = (
    "id",
    "log_id",
    "game_type",
    "ruleset",
    "ruleset_options",
    "edition",
    "player_count",
    "source",
    "played_at",
    "termination",
    "counts",
)
SEAT_FIELDS = (
    "game_id",
    "player_id",
    "played_at",
    "score",
    "seat",
    "rank",
    "winner",
    "name",
    "strategy",
    "summary",
)


def unsaved[M: Model](model: type[M], names: tuple[str, ...], values: Sequence[Any]) -> M:
    """model(**dict(zip(names, values))), `names` being every concrete field's attname in
    the model's order, without Model.__init__'s steps per keyword: a verified log's game
    and four seats took 0.1 ms there (issue 25), where this is a dict update. The same
    instance (unsaved, its fields set, nothing cached); with __init__ when something
    listens to its pre_init or post_init signals."""
    if names != field_attnames(model):
        raise ValueError(f"{model.__name__}: give every concrete field, in order: {names}")
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model(*values)
    instance = model.__new__(model)
    instance.__dict__.update(zip(names, values, strict=True))
    instance._state = ModelState()
    return instance


@functools.cache
def field_attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def build_seats(
    game: Game,
    parsed: Mapping[str, Any],
    replayed: engines.Replay | Replayed,
    players: Mapping[str, int],
) -> list[GameSeat]:
    """The game's seats; `players` maps log names to Player ids (seated_players)."""
    outcome = replayed.outcome
    if isinstance(replayed, Replayed):
        summaries = replayed.summaries
    else:
        summaries = replayed.game.seat_summary(replayed.state)
    if game.source == Source.SIMULATED:
        players = {}  # a bot's seat names no player, even where a player has its name
    cache_game = GameSeat.game.field.set_cached_value
    seats = []
    for seat, entry in enumerate(parsed["players"]):
        name = entry["name"]
        built = unsaved(
            GameSeat,
            SEAT_FIELDS,
            (
                game.pk,
                players.get(name),
                game.played_at,
                float(outcome.scores[seat]),  # as a FloatField reads back
                seat,
                outcome.ranks[seat],
                seat in outcome.winners,
                name,
                entry.get("strategy", ""),
                summaries.get(seat),
            ),
        )
        cache_game(built, game)  # as GameSeat(game=game)
        seats.append(built)
    return seats


def retry_in_halves(logs: QuerySet[GameLog]) -> int:
    """Queue again logs whose task died with them, each task's logs as two halves: a task
    that dies again is halved again, down to one log verified alone, the only case that
    counts an attempt (GameLog.objects.claim_alone). Logs of a task that was not their fault
    are verified together again at once. Returns how many logs."""
    held: dict[str, list[int]] = defaultdict(list)
    for log_id, holder in logs.order_by("pk").values_list("pk", "lease_holder"):
        held[holder].append(log_id)
    dispatch = Dispatch()
    with transaction.atomic():
        GameLog.objects.filter(pk__in=[i for ids in held.values() for i in ids]).requeue()
        for ids in held.values():
            if len(ids) == 1:
                dispatch.on_commit(verify_log_task, ids[0])
                continue
            middle = (len(ids) + 1) // 2
            for half in (ids[:middle], ids[middle:]):
                if len(half) == 1:
                    dispatch.on_commit(verify_log_task, half[0])
                else:
                    dispatch.on_commit(verify_logs_task, half)
    return sum(len(ids) for ids in held.values())


# A database, broker or cache error is no fault of the logs: the tasks retry with backoff
# (common.outages.retry_after_outage), resuming what they had claimed, instead of being
# acknowledged as done with their logs left verifying. Task names are fixed (the app's
# tasks.py names them for discovery) so messages queued before a deploy find their task.
@shared_task(name="games.tasks.verify_log_task", bind=True)
def verify_log_task(self: Task, log_id: int, resume: bool = False) -> None:
    try:
        verify_log(log_id, holder=self.request.id, resume=resume)
    except INFRASTRUCTURE_ERRORS as error:
        raise retry_after_outage(self, error, resume=True) from error


@shared_task(name="games.tasks.verify_logs_task", bind=True)
def verify_logs_task(self: Task, log_ids: list[int], resume: bool = False) -> None:
    """A part of a batch: one message for many logs, their verdicts committed in groups."""
    try:
        verify_logs(log_ids, holder=self.request.id, resume=resume)
    except INFRASTRUCTURE_ERRORS as error:
        raise retry_after_outage(self, error, resume=True) from error
