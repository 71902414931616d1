"""Ratings from verified games: incremental updates, recompute, current values."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from games.models import Game, GameSeat
from ratings import elo
from ratings.models import Rating, RatingChange
from ratings.rater import Change, GameRecord, PlayerRatings, Rater


def elo_k() -> float:
    """K before dividing by (table size - 1); settings.RATINGS_ELO_K overrides 32."""
    return float(getattr(settings, "RATINGS_ELO_K", elo.DEFAULT_K))


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
    games = games.exclude(pk__in=exclude).order_by("played_at", "pk").prefetch_related("seats")
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


@transaction.atomic
def recompute(game_type: str, exclude: Collection[int] = ()) -> int:
    """Rebuild a game type's ratings from its verified games in chronological order.

    Deterministic: the same games give the same numbers as the incremental updates did.
    Games in `exclude` (one being retracted) are left out. Returns the games rated.
    """
    rater = Rater(elo_k())
    records = game_records(game_type, exclude=exclude)
    changes = [change for record in records for change in rater.apply(record)]
    RatingChange.objects.filter(game_type=game_type).delete()
    Rating.objects.filter(game_type=game_type).delete()
    Rating.objects.bulk_create(
        _store_rating(Rating(player_id=player, game_type=game_type), state)
        for player, state in rater.players.items()
    )
    RatingChange.objects.bulk_create(
        (_rating_change(c, game_type) for c in changes), batch_size=1000
    )
    return len(records)


def recompute_all() -> dict[str, int]:
    game_types = set(Game.objects.values_list("game_type", flat=True))
    game_types |= set(Rating.objects.values_list("game_type", flat=True))
    return {game_type: recompute(game_type) for game_type in sorted(game_types)}


@transaction.atomic
def rate_game(game: Game) -> None:
    """Apply one newly verified game. Idempotent: a game already rated changes nothing.

    A game older than one already rated for any of its players cannot be appended, so the
    game type is recomputed instead, keeping the stored numbers equal to a recompute.
    """
    if RatingChange.objects.filter(game=game).exists():
        return
    record = record_of(game, game.seats.all())
    if record is None:
        return
    later = RatingChange.objects.filter(
        game_type=game.game_type, player_id__in=list(record.ranks)
    ).filter(Q(played_at__gt=game.played_at) | Q(played_at=game.played_at, game_id__gt=game.pk))
    if later.exists():
        recompute(game.game_type)
        return
    stored = {
        r.player_id: r
        for r in Rating.objects.select_for_update().filter(
            game_type=game.game_type, player_id__in=list(record.ranks)
        )
    }
    rater = Rater(elo_k())
    for player, rating in stored.items():
        rater.players[player] = PlayerRatings(
            rating.rating, rating.mu, rating.sigma, rating.games, rating.wins, rating.last_played
        )
    changes = rater.apply(record)
    for change in changes:
        rating = stored.get(change.player_id) or Rating(
            player_id=change.player_id, game_type=game.game_type
        )
        _store_rating(rating, change.after).save()
    RatingChange.objects.bulk_create(_rating_change(c, game.game_type) for c in changes)


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
