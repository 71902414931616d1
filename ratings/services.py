"""Ratings from verified games: incremental updates, recompute, current values.

Every change to a game type's ratings holds that type's RatingLedger row lock, so concurrent
verifications apply their games one after another (and never both create a new player's
Rating). Games arriving in chronological order (played_at, then id) are applied
incrementally; one older than a game already rated for one of its players marks the type
stale and queues a recompute, which brings the stored numbers back to a full recompute's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Prefetch, Q

from games.models import Game, GameSeat
from ratings import elo
from ratings.models import Rating, RatingChange, RatingLedger
from ratings.rater import Change, GameRecord, PlayerRatings, Rater


def elo_k() -> float:
    """K before dividing by (table size - 1): the RATINGS_ELO_K setting."""
    return settings.RATINGS_ELO_K


def record_of(game: Game, seats: Iterable[GameSeat]) -> GameRecord | None:
    """The players' placements, or None when fewer than two seats are players (bots)."""
    ranks: dict[int, int] = {}
    winners = set()
    for seat in seats:
        if seat.player_id is None or seat.player_id in ranks:
            continue
        ranks[seat.player_id] = seat.rank
        if seat.winner:
            winners.add(seat.player_id)
    if len(ranks) < 2:
        return None
    return GameRecord(game.pk, game.played_at, game.source, ranks, frozenset(winners))


def game_records(game_type: str, games=None, exclude: Collection[int] = ()) -> list[GameRecord]:
    """Rated records of the verified games of a type, oldest first (ties by id)."""
    games = Game.objects.filter(game_type=game_type) if games is None else games
    games = (
        games.filter(counts=True)
        .exclude(pk__in=exclude)
        .order_by("played_at", "pk")
        .only("played_at", "source")  # not the facts: a few KB per game nobody reads here
        .prefetch_related(
            Prefetch("seats", GameSeat.objects.only("game_id", "player_id", "rank", "winner"))
        )
    )
    return [r for g in games if (r := record_of(g, g.seats.all())) is not None]


def _rating_change(change: Change, game_type: str) -> RatingChange:
    return RatingChange(
        game_id=change.game.game_id,
        player_id=change.player_id,
        game_type=game_type,
        played_at=change.game.played_at,
        source=change.game.source,
        rank=change.game.ranks[change.player_id],
        won=change.player_id in change.game.winners,
        elo_before=change.before.elo,
        elo_after=change.after.elo,
        mu_before=change.before.mu,
        mu_after=change.after.mu,
        sigma_before=change.before.sigma,
        sigma_after=change.after.sigma,
    )


def _store_rating(rating: Rating, state: PlayerRatings) -> Rating:
    rating.rating, rating.mu, rating.sigma = state.elo, state.mu, state.sigma
    rating.games, rating.wins, rating.last_played = state.games, state.wins, state.last_played
    return rating


def locked_ledger(game_type: str) -> RatingLedger:
    """The game type's ledger row, locked until the transaction ends; created on first use
    (a concurrent creator's insert is skipped, and both then wait on the one row)."""
    ledger = RatingLedger.objects.select_for_update().filter(game_type=game_type).first()
    if ledger is None:
        RatingLedger.objects.bulk_create([RatingLedger(game_type=game_type)], ignore_conflicts=True)
        ledger = RatingLedger.objects.select_for_update().get(game_type=game_type)
    return ledger


def _store_replayed(
    game_type: str, rater: Rater, changes: list[Change], ledger: RatingLedger
) -> None:
    """Store what a replay of games computed (the rows it replaces are already deleted)
    and mark the ledger caught up; saving it, stale or not, retires the cached
    leaderboards (stats/cache.py)."""
    Rating.objects.bulk_create(
        _store_rating(Rating(player_id=player, game_type=game_type), state)
        for player, state in rater.players.items()
    )
    RatingChange.objects.bulk_create(
        (_rating_change(c, game_type) for c in changes), batch_size=1000
    )
    ledger.stale = False
    ledger.save(update_fields=["stale"])


@transaction.atomic
def recompute(game_type: str, exclude: Collection[int] = ()) -> int:
    """Rebuild a game type's ratings from its verified games in chronological order.

    Deterministic: the same games give the same numbers as the incremental updates did.
    Games in `exclude` (one being retracted) are left out. Returns the games rated.
    """
    ledger = locked_ledger(game_type)
    rater = Rater(elo_k())
    records = game_records(game_type, exclude=exclude)
    changes = [change for record in records for change in rater.apply(record)]
    RatingChange.objects.filter(game_type=game_type).delete()
    Rating.objects.filter(game_type=game_type).delete()
    _store_replayed(game_type, rater, changes, ledger)
    return len(records)


@transaction.atomic
def recompute_if_stale(game_type: str) -> None:
    """The queued recompute: skipped when an earlier one already caught up, so a burst of
    late games costs one recompute, not one each."""
    if locked_ledger(game_type).stale:
        catch_up(game_type)


@transaction.atomic
def catch_up(game_type: str) -> int:
    """The numbers of `recompute`, redoing only the games from the earliest unrated one on.

    Whatever is stored is the chronological rating of the games rated so far (a late game
    is never rated incrementally), so everything before the first unrated game is already
    what a recompute would give: each player starts the rest from their last change before
    it. Returns the games rated again.
    """
    ledger = locked_ledger(game_type)
    first = (
        Game.objects.filter(game_type=game_type, counts=True, rating_changes__isnull=True)
        .annotate(players=Count("seats__player", distinct=True))
        .filter(players__gte=2)  # rated games (record_of)
        .order_by("played_at", "pk")
        .values_list("played_at", "pk")
        .first()
    )
    redo = []
    if first is not None:
        played_at, game_id = first
        redo = game_records(
            game_type,
            Game.objects.filter(game_type=game_type).filter(
                Q(played_at__gt=played_at) | Q(played_at=played_at, pk__gte=game_id)
            ),
        )
    rater, redone = Rater(elo_k()), []
    if redo:
        changes = RatingChange.objects.filter(game_type=game_type)
        later = Q(played_at__gt=played_at) | Q(played_at=played_at, game_id__gte=game_id)
        players = {player for record in redo for player in record.ranks}
        for player, elo_after, mu, sigma, won, last_played in (
            changes.filter(player_id__in=players)
            .exclude(later)
            .order_by("played_at", "game_id")
            .values_list("player_id", "elo_after", "mu_after", "sigma_after", "won", "played_at")
        ):
            before = rater.get(player)
            rater.players[player] = PlayerRatings(
                elo_after, mu, sigma, before.games + 1, before.wins + won, last_played
            )
        redone = [change for record in redo for change in rater.apply(record)]
        changes.filter(later).delete()
        Rating.objects.filter(game_type=game_type, player_id__in=players).delete()
    _store_replayed(game_type, rater, redone, ledger)
    return len(redo)


def recompute_all() -> dict[str, int]:
    game_types = set(Game.objects.values_list("game_type", flat=True))
    game_types |= set(Rating.objects.values_list("game_type", flat=True))
    return {game_type: recompute(game_type) for game_type in sorted(game_types)}


def rate_game(game: Game) -> None:
    """Apply one newly verified game (see rate_games)."""
    rate_games([game])


@transaction.atomic
def rate_games(games: Iterable[Game]) -> None:
    """Apply newly verified games. Idempotent: games already rated change nothing.

    Call it last in the verifying transaction: it holds each game type's ledger lock until
    the commit.
    """
    by_type: dict[str, list[Game]] = {}
    for game in games:
        by_type.setdefault(game.game_type, []).append(game)
    for game_type in sorted(by_type):  # one lock order for every worker
        _rate_in_order(game_type, by_type[game_type])


def _rate_in_order(game_type: str, games: list[Game]) -> None:
    ledger = locked_ledger(game_type)
    if ledger.stale:
        return  # the queued recompute will count these games too
    rated = set(RatingChange.objects.filter(game__in=games).values_list("game_id", flat=True))
    records = sorted(
        (
            record
            for game in games
            if game.pk not in rated and (record := record_of(game, game.seats.all()))
        ),
        key=lambda record: record.order_key,
    )
    if not records:
        return
    players = {player for record in records for player in record.ranks}
    first = records[0]
    later = RatingChange.objects.filter(game_type=game_type, player_id__in=players).filter(
        Q(played_at__gt=first.played_at) | Q(played_at=first.played_at, game_id__gt=first.game_id)
    )
    if later.exists():
        _recompute_later(ledger)
        return
    stored = {
        r.player_id: r for r in Rating.objects.filter(game_type=game_type, player_id__in=players)
    }
    rater = Rater(elo_k())
    for player, rating in stored.items():
        rater.players[player] = PlayerRatings(
            rating.rating, rating.mu, rating.sigma, rating.games, rating.wins, rating.last_played
        )
    changes = [change for record in records for change in rater.apply(record)]
    moved = sorted({change.player_id for change in changes})
    # One upsert for new and known players: bulk_update's CASE per field and row would cost
    # tens of milliseconds, all of them under the ledger lock other workers wait on.
    Rating.objects.bulk_create(
        [
            _store_rating(Rating(player_id=player, game_type=game_type), rater.players[player])
            for player in moved
        ],
        update_conflicts=True,
        unique_fields=["player", "game_type"],
        update_fields=["rating", "mu", "sigma", "games", "wins", "last_played"],
    )
    RatingChange.objects.bulk_create(_rating_change(c, game_type) for c in changes)


def _recompute_later(ledger: RatingLedger) -> None:
    """A game older than one already rated: recompute once the verifying transaction has
    committed (queued once however many late games come meanwhile). Without a broker tasks
    run in-process anyway, so the recompute is done at once, under the lock already held."""
    from ratings.tasks import recompute_ratings_task

    if recompute_ratings_task.app.conf.task_always_eager:
        recompute(ledger.game_type)
        return
    ledger.stale = True
    ledger.save(update_fields=["stale"])
    recompute_ratings_task.delay_on_commit(ledger.game_type)


def retract_game(game: Game) -> None:
    """A game about to be deleted leaves the ratings: recompute without it."""
    if RatingChange.objects.filter(game=game).exists():
        recompute(game.game_type, exclude=[game.pk])


def current_elo(game_type: str, player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's Elo in a game type (the starting rating when unrated)."""
    player_ids = list(player_ids)
    stored = dict(
        Rating.objects.filter(game_type=game_type, player_id__in=player_ids).values_list(
            "player_id", "rating"
        )
    )
    return {p: stored.get(p, elo.START) for p in player_ids}
