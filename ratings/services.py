"""Ratings from counted games: pending games, the rater, catch-ups, recompute, current values.

Verification never waits on ratings: the transaction that makes a game count only appends a
PendingRating row (an insert nobody else's lock holds up) and commits. One rater at a time per
game type applies the pending games (`rate_pending`), holding that type's RatingLedger row
lock taken with SKIP LOCKED: a rater finding it taken leaves its games to the holder, who
looks again once it has committed. The rater runs right after the commit in the worker that
verified (so ratings are milliseconds behind), in `rate_games_task` when the change came from
elsewhere (a web request, a command) or needs a long catch-up, and beat's
`rate_stranded_games_task` takes over from a worker that died. Without a broker there is no
worker: the rater runs at once, in the transaction that made the change.

Pending games later than everything their players were rated for are applied incrementally;
an older one, or a retraction, redoes the games from it on (`catch_up`). Either way the stored
numbers are a full recompute's: whatever is stored is the chronological rating of the games
rated so far, so everything before the first pending game already is what a recompute gives.
"""

from __future__ import annotations

import functools
import logging
import math
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from itertools import chain
from operator import attrgetter
from typing import NamedTuple

import numpy
from celery import Task, current_task, shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import (
    Case,
    Count,
    Exists,
    Model,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    When,
    prefetch_related_objects,
)
from django.utils import timezone

from common.compiled import compile_once
from common.database import any_of, indexes_built_after, insert_rows, truncate, upsert_rows
from common.outages import INFRASTRUCTURE_ERRORS, retry_after_outage
from games.models import Game, GameSeat, Source
from ratings import elo, history
from ratings.models import PendingRating, Rating, RatingChange, RatingLedger
from ratings.rater import (
    Change,
    GameRecord,
    PlayerRatings,
    Point,
    Rater,
    elo_step,
    rating_order,
)
from ratings.signals import elo_going_in_moved

# A worker that just verified games catches up inline only this many games; a longer
# catch-up (a game older than thousands of rated ones) goes to rate_games_task, so that the
# worker's next verifications are not held back by it.
INLINE_CATCH_UP_GAMES = 2_000
# Rounds of one rater before it hands the rest to a task: games pending again after every
# round means other workers keep committing faster than it rates.
RATER_ROUNDS = 20

CHANGE_FIELDS = (
    "game",
    "player",
    "played_at",
    "elo_before",
    "elo_after",
    "mu_after",
    "sigma_after",
    "game_type",
    "won",
)
RATING_FIELDS = ("player", "game_type", "rating", "mu", "sigma", "games", "wins", "last_played")


def elo_k() -> float:
    """K before dividing by (table size - 1): the RATINGS_ELO_K setting."""
    return settings.RATINGS_ELO_K


# Reading games --------------------------------------------------------------------------


def placings(seats: Iterable[tuple[int | None, int, bool]]) -> tuple[dict[int, int], frozenset]:
    """A game's (player -> rank, winners) from its seats' (player, rank, winner) in seat
    order: bots (no player) are not rated, a player seated twice counts once, by their
    first seat. The game is rated when at least two players remain."""
    ranks: dict[int, int] = {}
    winners = set()
    for player_id, rank, winner in seats:
        if player_id is not None and player_id not in ranks:
            ranks[player_id] = rank
            if winner:
                winners.add(player_id)
    return ranks, frozenset(winners)


def records_of(games: QuerySet[Game]) -> list[GameRecord]:
    """The rated records of these games, oldest first (ties by id): two queries of plain
    tuples, the seats' placings as `placings` reads them."""
    seats: dict[int, list[tuple[int, int, bool]]] = {}
    for game_id, player_id, rank, winner in (
        GameSeat.objects.filter(game__in=games.values("pk"), player__isnull=False)
        .order_by("game_id", "seat")
        .values_list("game_id", "player_id", "rank", "winner")
    ):
        seats.setdefault(game_id, []).append((player_id, rank, winner))
    records = []
    for game_id, played_at, source in games.order_by("played_at", "pk").values_list(
        "pk", "played_at", "source"
    ):
        ranks, winners = placings(seats.get(game_id, ()))
        if len(ranks) >= 2:
            records.append(GameRecord(game_id, played_at, source, ranks, winners))
    return records


def seated_records(games: Iterable[Game]) -> dict[int, GameRecord | None]:
    """records_of for games whose seats are in hand: game id -> its record, None when fewer
    than two players sit (not rated). The verifier hands its games over with the seats it
    stored (a prefetch: games.services.verification.seated), so this reads nothing then;
    other games' seats are read in one query. Placings as records_of reads them (placings)."""
    games = list(games)
    prefetch_related_objects(games, "seats")  # a no-op for the verifier's games
    return {
        game.pk: seated_record(game, sorted(game.seats.all(), key=seat_number)) for game in games
    }


seat_number = attrgetter("seat")


def seated_record(game: Game, seats: Sequence[GameSeat]) -> GameRecord | None:
    """The game's record from its seats in seat order (placings), None when fewer than
    two players sit (not rated)."""
    ranks, winners = placings((seat.player_id, seat.rank, seat.winner) for seat in seats)
    if len(ranks) < 2:
        return None
    return GameRecord(game.pk, game.played_at, game.source, ranks, winners)


def game_records(
    game_type: str, games: QuerySet[Game] | None = None, exclude: Collection[int] = ()
) -> list[GameRecord]:
    """Rated records of the counted games of a type (of `games` when given), oldest first."""
    games = Game.objects.filter(game_type=game_type) if games is None else games
    return records_of(games.filter(counts=True).exclude(pk__in=list(exclude)))


def from_point(point: Point, played_at: str = "played_at", game: str = "pk") -> Q:
    """The games (or rating changes) at `point` or after it in the rating order."""
    moment, game_id = point
    # The range on its own first, so that an index on played_at (or ending with it) serves.
    return Q(**{f"{played_at}__gte": moment}) & (
        Q(**{f"{played_at}__gt": moment}) | Q(**{f"{game}__gte": game_id})
    )


# Writing ratings -------------------------------------------------------------------------


def change_rows(changes: Iterable[Change], game_type: str) -> Iterable[tuple]:
    """RatingChange rows (CHANGE_FIELDS) of these changes."""
    for change in changes:
        record, player = change.game, change.player_id
        yield (
            record.game_id,
            player,
            record.played_at,
            change.elo_before,
            change.elo_after,
            change.mu_after,
            change.sigma_after,
            game_type,
            player in record.winners,
        )


def rating_rows(players: dict[int, PlayerRatings], game_type: str) -> Iterable[tuple]:
    for player, s in players.items():
        yield (player, game_type, s.elo, s.mu, s.sigma, s.games, s.wins, s.last_played)


# Slots of the rater's queries compiled once (common.compiled): values no request sends.
GAME_TYPE_SLOT = "\x00game type"
PLAYERS_SLOT = [-32_123]
MOMENT_SLOT = datetime(1901, 2, 3, 4, 5, 6, 789, tzinfo=UTC)
GAME_SLOT = -32_124


def restored_rows(game_type: str, players: list[int], moment: datetime, game_id: int) -> QuerySet:
    """Each of these players' stored ratings in a game type, and whether they were rated for
    a game at (moment, game_id) or after it in the rating order."""
    later = RatingChange.objects.filter(
        player_id=OuterRef("player_id"), game_type=game_type
    ).filter(from_point((moment, game_id), game="game_id"))
    return Rating.objects.filter(any_of("player_id", players), game_type=game_type).values_list(
        "player_id", "rating", "mu", "sigma", "games", "wins", "last_played", Exists(later)
    )


def restored(game_type: str, players: Iterable[int], since: Point) -> tuple[Rater, bool]:
    """A Rater holding these players' stored ratings, and whether any of them was rated for
    a game at `since` or after it in the rating order (then the games from `since` on are
    to be redone, not applied on top): one query, compiled once (the ORM spent more CPU
    building and compiling it for each verified group than the database did answering). A
    player rated for a game has a Rating row (the rater writes both, under the ledger lock)."""
    rater = Rater(elo_k())
    values = {"game_type": game_type, "players": list(players), "moment": since[0]}
    values["game_id"] = since[1]
    compiled = compile_once(
        "rater restored",
        Rating,
        restored_rows,
        {"game_type": GAME_TYPE_SLOT, "players": PLAYERS_SLOT, "moment": MOMENT_SLOT}
        | {"game_id": GAME_SLOT},
    )
    rows = restored_rows(**values) if compiled is None else compiled.rows(values)
    rated_since = False
    for player, rating, mu, sigma, games, wins, last_played, rated_later in rows:
        rater.players[player] = PlayerRatings(rating, mu, sigma, games, wins, last_played)
        rated_since = rated_since or rated_later
    return rater, rated_since


# The ledger --------------------------------------------------------------------------------


def ledger_rows(game_type: str, skip_locked: bool) -> QuerySet:
    """The game type's ledger row (pk, stale), locked until the transaction ends."""
    return (
        RatingLedger.objects.select_for_update(skip_locked=skip_locked)
        .filter(game_type=game_type)
        .values_list("pk", "stale")
    )


def locked_ledger(game_type: str, skip_locked: bool = False) -> RatingLedger | None:
    """The game type's ledger row, locked until the transaction ends; created on first use
    (a concurrent creator's insert is skipped). With `skip_locked`, None when another holds
    it, instead of waiting. Its lock compiled once (a rater takes it every verified group)."""
    compiled = compile_once(
        f"rater ledger{' skip locked' if skip_locked else ''}",
        RatingLedger,
        functools.partial(ledger_rows, skip_locked=skip_locked),
        {"game_type": GAME_TYPE_SLOT},
    )

    def locked() -> RatingLedger | None:
        if compiled is None:
            return (
                RatingLedger.objects.select_for_update(skip_locked=skip_locked)
                .filter(game_type=game_type)
                .first()
            )
        for pk, stale in compiled.rows({"game_type": game_type}):  # one at most: unique
            return RatingLedger.from_db(compiled.alias, None, (pk, game_type, stale))
        return None

    ledger = locked()
    if ledger is None:
        if skip_locked and RatingLedger.objects.filter(game_type=game_type).exists():
            return None
        RatingLedger.objects.bulk_create([RatingLedger(game_type=game_type)], ignore_conflicts=True)
        ledger = locked()
    return ledger


def saved(ledger: RatingLedger, stale: bool = False) -> None:
    """The ratings changed (or a catch-up is due): saving the ledger retires the cached
    leaderboards once committed (stats/cache.py)."""
    ledger.stale = stale
    ledger.save(update_fields=["stale"])


# What the transactions that change games do ---------------------------------------------


PENDING_FIELDS = ("game_type", "game_id", "played_at", "created")


def add_pending(games: Iterable[Game]) -> None:
    """Games that now count wait for the rater: one insert, no lock on anything shared.
    Simulated games seat only bots, so nobody is rated for them. The rater that runs in
    this process (the verifying worker's, or at once without a broker) is handed the
    games' records from the seats in hand (seated_records), not reading them back."""
    games = [game for game in games if game.source != Source.SIMULATED]
    if not games:
        return
    now = timezone.now()
    insert_rows(
        PendingRating,
        PENDING_FIELDS,
        [(game.game_type, game.pk, game.played_at, now) for game in games],
    )
    for game_type in sorted({game.game_type for game in games}):
        rate_after_commit(game_type, games=[game for game in games if game.game_type == game_type])


def rate_after_commit(
    game_type: str, exclude: Collection[int] = (), games: Collection[Game] = ()
) -> None:
    """Have the rater take in the type's pending games once this transaction commits: in
    this worker, which just verified them, or in a task when this is not a worker (a web
    request, a command). Without a broker nothing runs later: the rater runs now, in this
    transaction, leaving out the games in `exclude` (being deleted). A rater in this process
    rates `games` (pending ones just added) from their seats in hand (seated_records)."""
    if rate_games_task.app.conf.task_always_eager:
        rate_pending(game_type, wait=True, exclude=exclude, known=seated_records(games))
    elif current_task:
        # robust: the verification is committed whatever the rater meets; the rest of the
        # task carries on, and another rater or beat's sweep takes the games.
        transaction.on_commit(
            functools.partial(
                rate_until_caught_up,
                game_type,
                INLINE_CATCH_UP_GAMES,
                known=seated_records(games),
            ),
            robust=True,
        )
    else:
        rate_games_task.delay_on_commit(game_type)


def retract_game(game: Game) -> None:
    """A game about to be deleted leaves the ratings: the games after it are redone without
    it. Takes the ledger lock (waiting), so no rater is rating it meanwhile."""
    if game.source == Source.SIMULATED:
        return
    locked_ledger(game.game_type)
    if RatingChange.objects.filter(game=game).exists():
        PendingRating.objects.create(
            game_type=game.game_type, game_id=game.pk, played_at=game.played_at
        )
        rate_after_commit(game.game_type, exclude=[game.pk])
    else:  # never rated: nothing of it to undo
        PendingRating.objects.filter(game_type=game.game_type, game_id=game.pk).delete()


# The rater ------------------------------------------------------------------------------


@transaction.atomic
def rate_pending(
    game_type: str,
    wait: bool = False,
    largest_catch_up: int | None = None,
    exclude: Collection[int] = (),
    known: Mapping[int, GameRecord | None] | None = None,
) -> int | None:
    """Take in the game type's pending games, in played order; returns the games rated
    (again), or None when another rater holds the ledger (it looks again once committed).

    `wait` waits for the ledger instead. A catch-up redoing more than `largest_catch_up`
    games is not done here: the ledger is marked stale and rate_games_task queued for it.
    Games in `exclude` count as retracted. Idempotent: a game already rated is skipped.
    `known`: records of pending games in hand (seated_records), not read again; whether
    each still counts and is not rated yet is read all the same.
    """
    ledger = locked_ledger(game_type, skip_locked=not wait)
    if ledger is None:
        return None
    if ledger.stale and largest_catch_up is not None:
        return 0  # the queued catch-up takes every pending game
    pending, present, unrated = pending_games(game_type, exclude)
    if not pending and not ledger.stale:
        return 0
    known = known or {}
    new = [known[game_id] for game_id in unrated if game_id in known]
    new = [record for record in new if record is not None]
    if unread := [game_id for game_id in unrated if game_id not in known]:
        new += records_of(Game.objects.filter(any_of("pk", unread)))
    new.sort(key=lambda record: record.order_key)
    # A pending game gone from the counted games was retracted: redo from where it was.
    points = [(played_at, game_id) for _, game_id, played_at in pending if game_id not in present]
    points += [record.order_key for record in new]
    catch_up = ledger.stale or len(points) > len(new)
    rater = None
    if new and not catch_up:
        players = {player for record in new for player in record.ranks}
        rater, catch_up = restored(game_type, players, since=new[0].order_key)
    if catch_up:
        start = min(points) if points else None  # stale and nothing pending: from the start
        if largest_catch_up is not None and longer_than(game_type, start, largest_catch_up):
            saved(ledger, stale=True)
            rate_games_task.delay_on_commit(game_type)
            return 0
        count = replay(game_type, start, exclude)
    elif new:
        count = rate_in_order(game_type, new, rater)
    else:
        count = 0
    PendingRating.objects.filter(any_of("pk", [pk for pk, _, _ in pending])).delete()
    if count or ledger.stale:
        saved(ledger)
    return count


def pending_rows(game_type: str, exclude: Collection[int] = ()) -> QuerySet:
    """The type's pending rows (pk, game id, played_at), each with whether its game counts
    (less `exclude`) and whether it has a rating change."""
    counted = Game.objects.filter(pk=OuterRef("game_id"), counts=True)
    if exclude:
        counted = counted.exclude(pk__in=list(exclude))
    rated = RatingChange.objects.filter(game_id=OuterRef("game_id"))
    return PendingRating.objects.filter(game_type=game_type).values_list(
        "pk", "game_id", "played_at", Exists(counted), Exists(rated)
    )


def pending_games(
    game_type: str, exclude: Collection[int]
) -> tuple[list[tuple[int, int, datetime]], set[int], list[int]]:
    """The type's pending rows (pk, game id, played_at); of their games, those that count
    (less `exclude`), and of those the ones with no rating change yet (in id order): one
    query, compiled once when nothing is excluded (a verified group's case)."""
    compiled = (
        None
        if exclude
        else compile_once(
            "rater pending", PendingRating, pending_rows, {"game_type": GAME_TYPE_SLOT}
        )
    )
    rows = (
        pending_rows(game_type, exclude)
        if compiled is None
        else compiled.rows({"game_type": game_type})
    )
    pending, present, unrated = [], set(), set()
    for pk, game_id, played_at, counts, was_rated in rows:
        pending.append((pk, game_id, played_at))
        if counts:
            present.add(game_id)
            if not was_rated:
                unrated.add(game_id)
    return pending, present, sorted(unrated)


def longer_than(game_type: str, start: Point | None, games: int) -> bool:
    counted = Game.objects.filter(game_type=game_type, counts=True)
    if start is not None:
        counted = counted.filter(from_point(start))
    return counted.values("pk")[: games + 1].count() > games


def rate_in_order(game_type: str, records: list[GameRecord], rater: Rater) -> int:
    """Games later than everything their players were rated for: on top of the stored
    ratings (`rater`, restored). One upsert for new and known players (bulk_update's CASE
    per field and row would cost more), of plain rows (upsert_rows)."""
    records.sort(key=lambda record: record.order_key)
    changes = [change for record in records for change in rater.apply(record)]
    moved = {change.player_id: rater.players[change.player_id] for change in changes}
    upsert_rows(
        Rating,
        RATING_FIELDS,
        list(rating_rows(dict(sorted(moved.items())), game_type)),
        unique=("player", "game_type"),
        update=("rating", "mu", "sigma", "games", "wins", "last_played"),
    )
    insert_rows(RatingChange, CHANGE_FIELDS, change_rows(changes, game_type))
    # every CHUNK-th game of a player completes a chunk of their packed history
    added = Counter(change.player_id for change in changes)
    counts = {p: (rater.players[p].games - n, rater.players[p].games) for p, n in added.items()}
    history.cut(game_type, history.crossed(counts))
    return len(records)


def replay(game_type: str, start: Point | None, exclude: Collection[int] = ()) -> int:
    """Redo the counted games from `start` on (all of them when None), leaving out
    `exclude`; everyone starts from their ratings before `start`. Returns the games rated."""
    counted = Game.objects.filter(game_type=game_type)
    changes = RatingChange.objects.filter(game_type=game_type)
    ratings = Rating.objects.filter(game_type=game_type)
    rater = Rater(elo_k())
    if start is not None:
        counted = counted.filter(from_point(start))
        changes = changes.filter(from_point(start, game="game_id"))
    records = game_records(game_type, counted, exclude)
    if start is not None:
        # Everyone rated for a game from `start` on (a retracted game's changes are gone
        # already, but its players' ratings still show when they last played).
        players = {player for record in records for player in record.ranks}
        players |= set(
            ratings.filter(last_played__gte=start[0]).values_list("player_id", flat=True)
        )
        ratings = ratings.filter(player_id__in=players)
        earlier = RatingChange.objects.filter(game_type=game_type, player_id__in=players)
        for player, elo_after, mu, sigma, won, played_at in (
            earlier.exclude(from_point(start, game="game_id"))
            .order_by("played_at", "game_id")
            .values_list("player_id", "elo_after", "mu_after", "sigma_after", "won", "played_at")
        ):
            before = rater.get(player)
            rater.players[player] = PlayerRatings(
                elo_after, mu, sigma, before.games + 1, before.wins + won, played_at
            )
        rated_before = {player for player, state in rater.players.items() if state.games}
        going_in_before = elo_going_in(
            changes.order_by("played_at", "game_id")
            .values_list("game_id", "player_id", "elo_before")
            .iterator(chunk_size=10_000),
            rated_before,
        )
    ratings.delete()
    written = array("q"), array("q"), array("d")
    with rewritten(game_type, changes, whole_type=start is None):
        # Rated while written: the database stores one part while the next is computed.
        new_changes = (change for record in records for change in rater.apply(record))
        if start is not None:
            new_changes = noted(new_changes, written)
        insert_rows(RatingChange, CHANGE_FIELDS, change_rows(new_changes, game_type))
    insert_rows(Rating, RATING_FIELDS, rating_rows(rater.players, game_type))
    if start is None:
        history.rebuild(game_type)
    else:
        counts = {player: rater.get(player).games for player in players}
        history.cut_from(game_type, start, counts)
        going_in_now = elo_going_in(zip(*written, strict=True), rated_before)
        announce_moved(game_type, going_in_before, going_in_now)
    return len(records)


class GoingIn(NamedTuple):
    """The Elo going into games, a seat each, as compact as a catch-up of a million seats
    needs (16 bytes a seat): keys (game id << 32 | player id) ascending, and each one's Elo
    (NaN where a statistics rebuild reads none: the player's first rated game)."""

    keys: numpy.ndarray
    elo: numpy.ndarray


def elo_going_in(
    changes: Iterable[tuple[int, int, float]], rated_before: Collection[int]
) -> GoingIn:
    """The Elo going in as a statistics rebuild reads it (elo_before_rows) of these changes'
    (game id, player id, elo_before), in the rating order: none for a player's first, when
    they were not rated before them (`rated_before`)."""
    seen = set(rated_before)
    keys, elos = array("q"), array("d")
    for game_id, player_id, elo_before in changes:
        keys.append(game_id << 32 | player_id)
        elos.append(elo_before if player_id in seen else math.nan)
        seen.add(player_id)
    order = numpy.argsort(numpy.frombuffer(keys, dtype=numpy.int64), kind="stable")
    return GoingIn(
        numpy.frombuffer(keys, dtype=numpy.int64)[order],
        numpy.frombuffer(elos, dtype=numpy.float64)[order],
    )


def noted(changes: Iterable[Change], into: tuple[array, array, array]) -> Iterator[Change]:
    """The changes, each one's game id, player id and elo_before noted `into` as it passes."""
    games, players, elos = into
    for change in changes:
        games.append(change.game.game_id)
        players.append(change.player_id)
        elos.append(change.elo_before)
        yield change


def announce_moved(game_type: str, before: GoingIn, now: GoingIn) -> None:
    """elo_going_in_moved for what a catch-up changed: the Elo going in of games rated
    again that is not what it was, and that of games rated for the first time. A game
    no longer rated (retracted) is not told of: it leaves the statistics itself."""
    both, at_before, at_now = numpy.intersect1d(
        before.keys, now.keys, assume_unique=True, return_indices=True
    )
    was, is_ = before.elo[at_before], now.elo[at_now]
    differ = (was != is_) & ~(numpy.isnan(was) & numpy.isnan(is_))
    moved = {
        seat_of(key): (elo_or_none(a), elo_or_none(b))
        for key, a, b in zip(
            both[differ].tolist(), was[differ].tolist(), is_[differ].tolist(), strict=True
        )
    }
    fresh = ~numpy.isin(now.keys, before.keys, assume_unique=True)
    newly_rated = {
        seat_of(key): elo_or_none(elo)
        for key, elo in zip(now.keys[fresh].tolist(), now.elo[fresh].tolist(), strict=True)
    }
    if moved or newly_rated:
        elo_going_in_moved.send(
            sender=RatingChange, game_type=game_type, moved=moved, newly_rated=newly_rated
        )


def seat_of(key: int) -> tuple[int, int]:
    """(game id, player id) of a GoingIn key."""
    return key >> 32, key & 0xFFFFFFFF


def elo_or_none(elo: float) -> float | None:
    return None if math.isnan(elo) else elo


@contextmanager
def rewritten(game_type: str, changes: QuerySet[RatingChange], whole_type: bool) -> Iterator[None]:
    """Delete these rating changes of a game type for new ones to be written. All of its
    changes, when they are most of the table: its indexes are built again afterwards, and
    when they are all of it the table is emptied at once (PostgreSQL's TRUNCATE, SQLite's
    DELETE without a condition: no dead rows left behind)."""
    if not whole_type:
        changes.delete()
        yield
        return
    counts = RatingChange.objects.aggregate(
        mine=Count("pk", filter=Q(game_type=game_type)),
        others=Count("pk", filter=~Q(game_type=game_type)),
    )
    if counts["mine"] <= counts["others"]:
        changes.delete()
        yield
        return
    with indexes_built_after(RatingChange):
        if counts["others"]:
            changes.delete()
        else:
            truncate(RatingChange)
        yield


def rate_until_caught_up(
    game_type: str,
    largest_catch_up: int | None = None,
    known: Mapping[int, GameRecord | None] | None = None,
) -> int | None:
    """The rater's loop: rate the pending games, then again while more came meanwhile (their
    own raters found the ledger taken and left them to this one). Returns the games rated,
    None when another rater held the ledger from the start. `known` as for rate_pending."""
    total = None
    for _ in range(RATER_ROUNDS):
        rated = rate_pending(game_type, largest_catch_up=largest_catch_up, known=known)
        if rated is None:
            return total
        total = (total or 0) + rated
        if not waiting(game_type, catching_up=largest_catch_up is None):
            return total
    rate_games_task.delay(game_type)
    return total


def waiting_rows(game_type: str, catching_up: bool) -> QuerySet:
    pending = PendingRating.objects.filter(game_type=game_type)
    if not catching_up:
        pending = pending.exclude(
            game_type__in=RatingLedger.objects.filter(stale=True).values("game_type")
        )
    return pending.values_list("pk")[:1]


def waiting(game_type: str, catching_up: bool) -> bool:
    """Games pending for this rater: all of them, or when it does no long catch-up, those
    not left to the catch-up queued already. Compiled once: asked after every group."""
    compiled = compile_once(
        f"rater waiting{' catching up' if catching_up else ''}",
        PendingRating,
        functools.partial(waiting_rows, catching_up=catching_up),
        {"game_type": GAME_TYPE_SLOT},
    )
    if compiled is None:
        return waiting_rows(game_type, catching_up).exists()
    return bool(compiled.rows({"game_type": game_type}))


def behind() -> list[str]:
    """The game types whose ratings have games to take in (pending, or a catch-up due)."""
    pending = set(PendingRating.objects.values_list("game_type", flat=True).distinct())
    pending |= set(RatingLedger.objects.filter(stale=True).values_list("game_type", flat=True))
    return sorted(pending)


@transaction.atomic
def recompute(game_type: str) -> int:
    """Rebuild a game type's ratings from its counted games in chronological order, in one
    transaction (waiting for a rater at work). Deterministic: the same games give the same
    numbers as the incremental updates did. Returns the games rated."""
    ledger = locked_ledger(game_type)
    pending = list(PendingRating.objects.filter(game_type=game_type).values_list("pk", flat=True))
    rated = replay(game_type, None)
    PendingRating.objects.filter(pk__in=pending).delete()  # newer ones: rated already, or not
    saved(ledger)
    return rated


def recompute_all() -> dict[str, int]:
    game_types = set(Game.objects.values_list("game_type", flat=True).distinct())
    game_types |= set(Rating.objects.values_list("game_type", flat=True).distinct())
    return {game_type: recompute(game_type) for game_type in sorted(game_types)}


def current_elo(game_type: str, player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's Elo in a game type (the starting rating when unrated)."""
    player_ids = list(player_ids)
    stored = dict(
        Rating.objects.filter(game_type=game_type, player_id__in=player_ids).values_list(
            "player_id", "rating"
        )
    )
    return {p: stored.get(p, elo.START) for p in player_ids}


logger = logging.getLogger(__name__)


def elo_before_rows(games: list[int], players: list[int]) -> QuerySet:
    """(game, player, Elo going in) of these rated games, the Elo None where the game was
    the player's first rated one of its type: the rater starts them at elo.START,
    but the verified game was banded unrated, and a rebuild or a reverification must band
    it so again. An index probe a row (ratings_changes_of_player)."""
    earlier = RatingChange.objects.filter(
        Q(played_at__lt=OuterRef("played_at"))
        | Q(played_at=OuterRef("played_at"), game_id__lt=OuterRef("game_id")),
        player_id=OuterRef("player_id"),
        game_type=OuterRef("game_type"),
    )
    return RatingChange.objects.filter(
        any_of("game_id", games), any_of("player_id", players)
    ).values_list("game_id", "player_id", Case(When(Exists(earlier), then="elo_before")))


def current_elo_rows(players: list[int], game_types: list[str]) -> QuerySet:
    return Rating.objects.filter(
        any_of("player_id", players), any_of("game_type", game_types)
    ).values_list("game_type", "player_id", "rating", "last_played")


# Slots of elo_going_into's queries (compile_once): lists sent as one parameter each.
ELO_SLOTS = {"games": [-32_125], "players": PLAYERS_SLOT, "game_types": ["\x00game types"]}


def compiled_or_asked(
    key: str, model: type[Model], build: Callable[..., QuerySet], values: dict[str, list]
) -> list[tuple]:
    """build(**values)'s rows, by its query compiled once (compile_once) where it can be:
    elo_going_into runs for every verified group."""
    slots = {name: ELO_SLOTS[name] for name in values}
    compiled = compile_once(key, model, build, slots)
    return list(build(**values)) if compiled is None else compiled.rows(values)


def elo_going_into(
    games: Sequence[Game], seats: Mapping[int, Sequence[GameSeat]]
) -> dict[tuple[int, int], float]:
    """(game id, player id) -> the player's Elo going into the game, for each player seated
    (`seats`: game id -> its seats): as the rater recorded it (rebuilds read that; left out
    for the player's first rated game, as when it was verified: elo_before_rows), else, for
    a game not rated yet, as rating the games one by one in the rater's order would leave it
    (running_elo); players with neither a rating nor an earlier game are left out (unrated).
    Two queries for any number of games; two more when a game not rated yet is older than
    a game one of its players was rated for (rated_after_first)."""
    seated = {
        (game.pk, seat.player_id): game
        for game in games
        for seat in seats[game.pk]
        if seat.player_id is not None
    }
    if not seated:
        return {}
    players = list({player_id for _, player_id in seated})
    game_types = list({game.game_type for game in seated.values()})
    before_rows = compiled_or_asked(
        "elo before",
        RatingChange,
        elo_before_rows,
        {"games": list({game_id for game_id, _ in seated}), "players": players},
    )
    rated = {game_id for game_id, _, _ in before_rows}
    before = {
        (game_id, player_id): rating
        for game_id, player_id, rating in before_rows
        if rating is not None  # a first game: unrated, as it was banded when verified
    }
    current = {}
    last_played = {}
    for game_type, player_id, rating, played_at in compiled_or_asked(
        "elo current", Rating, current_elo_rows, {"players": players, "game_types": game_types}
    ):
        current[game_type, player_id] = rating
        last_played[game_type, player_id] = played_at
    unrated = [game for game in games if game.pk not in rated]
    rated_since = rated_after_first(unrated, seats, last_played)
    return before | running_elo(unrated, seats, current, rated_since)


def rated_after_first(
    games: Sequence[Game],
    seats: Mapping[int, Sequence[GameSeat]],
    last_played: Mapping[tuple[str, int], datetime | None],
) -> dict[tuple[str, int], list[tuple[Point, float]]]:
    """(game type, player) -> the games the player was rated for from their last before
    their first of these games on, up to their last of these, as (rating_order, Elo
    after), oldest first: for each player rated for a game later than one of these (an old
    game verified after newer ones), whose rating now is not the one going into it. Two
    queries, only then; none for a group later than what its players were rated for."""
    latest = max(filter(None, last_played.values()), default=None)
    if not games or latest is None or latest <= min(game.played_at for game in games):
        return {}  # the usual group: later than every game its players were rated for
    first: dict[tuple[str, int], datetime] = {}
    for game in games:
        for seat in seats[game.pk]:
            key = (game.game_type, seat.player_id)
            if seat.player_id is not None and (key not in first or game.played_at < first[key]):
                first[key] = game.played_at
    later = [
        key
        for key, moment in first.items()
        # Later in time: a rated game at the moment of one of these is taken as before it
        # (the rating keeps when its last game was played, not which game that was).
        if last_played.get(key) is not None and last_played[key] > moment
    ]
    if not later:
        return {}
    since = min(first[key] for key in later)
    until = max(game.played_at for game in games)
    players = {player_id for _, player_id in later}
    game_types = {game_type for game_type, _ in later}
    changes = RatingChange.objects.filter(player_id__in=players, game_type__in=game_types)
    # Each one's last change before `since` (their Elo going into it), then every change
    # from `since` to the last of these games.
    last_before = changes.filter(
        player_id=OuterRef("player_id"), game_type=OuterRef("game_type"), played_at__lt=since
    ).order_by("-played_at", "-game_id")
    before = Rating.objects.filter(player_id__in=players, game_type__in=game_types).values_list(
        "game_type",
        "player_id",
        *(Subquery(last_before.values(field)[:1]) for field in ("played_at", "game_id")),
        Subquery(last_before.values("elo_after")[:1]),
    )
    since_then = changes.filter(played_at__gte=since, played_at__lte=until).order_by(
        "played_at", "game_id"
    )
    rated: dict[tuple[str, int], list[tuple[Point, float]]] = {key: [] for key in later}
    for game_type, player_id, played_at, game_id, elo_after in chain(
        before,
        since_then.values_list("game_type", "player_id", "played_at", "game_id", "elo_after"),
    ):
        if (game_type, player_id) in rated and game_id is not None:
            rated[game_type, player_id].append((rating_order(played_at, game_id), elo_after))
    return rated


def running_elo(
    games: Sequence[Game],
    seats: Mapping[int, Sequence[GameSeat]],
    current: Mapping[tuple[str, int], float],
    rated_since: Mapping[tuple[str, int], Sequence[tuple[Point, float]]] | None = None,
) -> dict[tuple[int, int], float]:
    """(game id, player id) -> Elo going into each of these games not rated yet: a player's
    Elo after their last game before it in the rater's order (rating_order), whether one of
    these, moved by the rater's own Elo step (elo_step), or a rated one. So a seat's band is
    one figure however many games a verified group holds: read from the ratings alone, a
    player's second game in a group of 200 read them unrated, or at their Elo from before
    the first (issue 25). A game that does not count, or seats fewer than two players,
    moves nobody (records_of rates neither).

    The rated games are the ratings as the rater left them (`current`: (game type, player)
    -> Elo), or, for a player rated for a game later than one of these (`rated_since`,
    rated_after_first), each of their rated games then, so that an old game verified after
    newer ones is banded by the Elo going into it, not the player's rating now. That is
    the Elo the rater's catch-up records for it when no rated game lies between it and the
    group's games before it; otherwise the catch-up also moves those rated games by it,
    which is left to the catch-up (which tells the bands: announce_moved)."""
    rated_since = rated_since or {}
    running = dict(current)
    for key in rated_since:  # their rating now counts games later than these
        running.pop(key, None)
    taken_in = dict.fromkeys(rated_since, 0)  # how many of each one's rated games so far
    k = elo_k()
    going_into = {}
    ordered = sorted((rating_order(game.played_at, game.pk), game) for game in games)
    for point, game in ordered:
        in_order = sorted(seats[game.pk], key=seat_number)
        for seat in in_order:
            key = (game.game_type, seat.player_id)
            if rated_since and key in rated_since:
                changes, taken = rated_since[key], taken_in[key]
                while taken < len(changes) and changes[taken][0] < point:
                    taken += 1
                if taken > taken_in[key]:  # rated for a game since their last of these
                    running[key], taken_in[key] = changes[taken - 1][1], taken
            elo_before = running.get(key)
            if seat.player_id is not None and elo_before is not None:
                going_into[game.pk, seat.player_id] = elo_before
        ranks, _ = placings((seat.player_id, seat.rank, seat.winner) for seat in in_order)
        if len(ranks) < 2 or not game.counts:
            continue
        table = {player: running.get((game.game_type, player), elo.START) for player in ranks}
        for player, elo_after in elo_step(ranks, table, k).items():
            running[game.game_type, player] = elo_after
    return going_into


# Pending this long, a game's rater is presumed lost (it normally runs milliseconds after
# the verifying commit).
STRANDED_AFTER = timedelta(seconds=5)


@shared_task(name="ratings.tasks.rate_games_task", bind=True)
def rate_games_task(self: Task, game_type: str) -> None:
    """Rate the game type's pending games, catching up however far back they go: queued when
    they were counted outside a worker (a web request, a command), or when their catch-up was
    too long for the worker that verified them. A no-op when another rater has taken them."""
    try:
        rate_until_caught_up(game_type)
    except INFRASTRUCTURE_ERRORS as error:
        raise retry_after_outage(self, error) from error


@shared_task(name="ratings.tasks.rate_stranded_games_task")
def rate_stranded_games_task() -> list[str]:
    """Periodic (celery beat): rate the games no rater took in (its worker died, or its
    message was lost) and the catch-ups still due; returns the game types rated."""
    stranded = set(
        PendingRating.objects.filter(created__lt=timezone.now() - STRANDED_AFTER)
        .values_list("game_type", flat=True)
        .distinct()
    )
    stranded |= set(RatingLedger.objects.filter(stale=True).values_list("game_type", flat=True))
    rated = [
        game_type for game_type in sorted(stranded) if rate_until_caught_up(game_type) is not None
    ]
    if rated:
        logger.warning("rated the stranded pending games of %s", ", ".join(rated))
    return rated
