"""The rater's per-group queries (restored ratings, pending games) are compiled once
(common.compiled, issue 25): they read what the ORM reads, for players rated before, at or
after a point, unrated players, pending games that count, were rated or were retracted; and
groups rated with them store the ORM's ratings to the last bit."""

from __future__ import annotations

from datetime import datetime

import pytest

from common import compiled
from games.models import Game
from games.services import verification
from ratings import services
from ratings.models import PendingRating
from tests.ratings.test_a_verified_group_is_rated_from_the_seats_in_hand import stored_logs
from tests.ratings_support import DEEP_VENTS, stored_ratings

pytestmark = pytest.mark.django_db


def through_the_orm(monkeypatch, read, *args):
    """`read(*args)` with every query built and compiled by the ORM, as before."""
    with monkeypatch.context() as patch:
        patch.setattr(services, "compile_once", lambda *_: None)
        return read(*args)


def restored_state(game_type, players, since) -> tuple:
    rater, rated_since = services.restored(game_type, players, since)
    return rated_since, list(rater.players.items())


def test_restored_ratings_are_the_orms_before_at_and_after_every_game(postgresql, monkeypatch):
    compiled.COMPILED.clear()
    monkeypatch.setattr(verification, "GROUP_SIZE", 3)
    verification.verify_logs(stored_logs([9, 8, 7, 6, 5, 4]))
    players = sorted({seat.player_id for game in Game.objects.all() for seat in game.seats.all()})
    for game in Game.objects.order_by("played_at"):
        for since in [
            (game.played_at, game.pk),
            (game.played_at, game.pk + 1),
            (game.played_at, game.pk - 1),
        ]:
            for wanted in (players, [-1], *([player] for player in players)):
                found = restored_state(DEEP_VENTS, wanted, since)
                assert found == through_the_orm(
                    monkeypatch, restored_state, DEEP_VENTS, wanted, since
                )
                assert found[1] or wanted == [-1]
    assert through_the_orm(monkeypatch, restored_state, "other", players, since) == (False, [])
    assert restored_state("other", players, since) == (False, [])


def test_pending_games_are_the_orms_counted_rated_or_retracted(postgresql, monkeypatch):
    compiled.COMPILED.clear()
    monkeypatch.setattr(verification, "GROUP_SIZE", 2)
    verification.verify_logs(stored_logs([5, 4, 3, 2]))
    games = list(Game.objects.order_by("played_at"))
    assert services.pending_games(DEEP_VENTS, ()) == ([], set(), [])
    # pending again: one rated, one uncounted, one no longer a game
    PendingRating.objects.bulk_create(
        PendingRating(game_type=DEEP_VENTS, game_id=game.pk, played_at=game.played_at)
        for game in games[:3]
    )
    Game.objects.filter(pk=games[1].pk).update(counts=False)
    PendingRating.objects.create(
        game_type=DEEP_VENTS, game_id=games[-1].pk + 100, played_at=games[0].played_at
    )
    found = services.pending_games(DEEP_VENTS, ())
    assert found == through_the_orm(monkeypatch, services.pending_games, DEEP_VENTS, ())
    assert found[1] == {games[0].pk, games[2].pk}
    assert len(found[0]) == 4


def test_groups_rated_with_the_compiled_queries_store_the_orms_numbers(postgresql, monkeypatch):
    compiled.COMPILED.clear()
    monkeypatch.setattr(verification, "GROUP_SIZE", 3)
    hours = [[20, 19, 18, 17, 16, 15], [18.5, 11, 16.5, 10, 9]]
    for batch in hours:
        verification.verify_logs(stored_logs(batch))
    compiled_ratings = stored_ratings()
    Game.objects.all().delete()
    services.recompute(DEEP_VENTS)
    monkeypatch.setattr(services, "compile_once", lambda *_: None)
    for batch in hours:
        verification.verify_logs(stored_logs(batch))
    by_orm = stored_ratings()
    assert len(by_orm[1]) > 25
    assert without_ids_and_times(compiled_ratings) == without_ids_and_times(by_orm)


def without_ids_and_times(stored: tuple[list, list]) -> tuple[list, list]:
    """The same games logged again get new ids and are played at the time they were made:
    the rows' other values, the numbers to the last bit."""
    ratings, changes = stored
    return (
        [tuple(v for v in row if not isinstance(v, datetime)) for row in ratings],
        [tuple(v for v in row[1:] if not isinstance(v, datetime)) for row in changes],
    )
