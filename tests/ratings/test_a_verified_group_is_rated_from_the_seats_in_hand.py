"""The rater takes a verified group's games from the seats the verifier hands over (the
game_counted payload), not reading them back (issue 25, CPU per verified log), and gives the
numbers a recompute reads from the database gives: over several groups, games older than
rated ones, ties, seats without a player and a retraction."""

import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameLog, Upload
from games.services import verification
from games.signals import game_retracted
from players.services import players_for
from ratings import services
from ratings.models import RatingChange
from tests.ratings_support import (
    DEEP_VENTS,
    deep_vents_log,
    hours_ago,
    recomputed_ratings,
    stored_ratings,
)

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cyd", "dee", "eve"]


def stored_logs(hours: list[float]) -> list[int]:
    """Logs of games between 2 to 4 of NAMES played `hours` ago, stored unverified."""
    upload = Upload.objects.create()
    ids = []
    for seed, ago in enumerate(hours):
        names = NAMES[seed % 3 : seed % 3 + 2 + seed % 3]
        raw = json.dumps(deep_vents_log(names, seed, hours_ago(ago)))
        log = GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=DEEP_VENTS
        )
        ids.append(log.pk)
    return ids


def test_groups_rated_from_the_verifiers_seats_get_what_a_recompute_reads_back(monkeypatch):
    monkeypatch.setattr(verification, "GROUP_SIZE", 4)
    verification.verify_logs(stored_logs([20, 19, 18, 17, 16, 15, 14, 13, 12]))
    # A second batch: games older than rated ones (a catch-up) and newer ones.
    verification.verify_logs(stored_logs([18.5, 11, 16.5, 10, 9, 14.5, 8, 7]))

    rated = stored_ratings()
    assert len({game_id for game_id, *_ in rated[1]}) == 17
    assert rated == recomputed_ratings()


def test_a_retraction_after_rating_from_the_seats_redoes_what_a_recompute_does(monkeypatch):
    monkeypatch.setattr(verification, "GROUP_SIZE", 3)
    verification.verify_logs(stored_logs([9, 8, 7, 6, 5, 4, 3]))
    retracted = Game.objects.order_by("played_at")[2]

    with transaction.atomic():
        game_retracted.send(sender=Game, game=retracted)
        retracted.log.delete()
    verification.verify_logs(stored_logs([6.5, 2]))

    rated = stored_ratings()
    assert retracted.pk not in {game_id for game_id, *_ in rated[1]}
    assert rated == recomputed_ratings()


def test_the_rater_reads_no_seat_of_the_games_the_verifier_hands_it(monkeypatch):
    monkeypatch.setattr(verification, "GROUP_SIZE", 4)
    ids = stored_logs([6, 5, 4, 3, 2, 1])

    with CaptureQueriesContext(connection) as queries:
        verification.verify_logs(ids)

    assert RatingChange.objects.values("game_id").distinct().count() == 6
    seat_reads = [q["sql"] for q in queries if 'FROM "games_gameseat"' in q["sql"]]
    assert seat_reads == []


def seats_made(game: Game, seats: list[tuple[str | None, int, bool]]) -> None:
    """The game's seats become these (player name or None, rank, winner), in seat order."""
    players = players_for([name for name, _, _ in seats if name])
    for seat, (name, rank, winner) in zip(game.seats.order_by("seat"), seats, strict=True):
        seat.player = players[name] if name else None
        seat.rank, seat.winner = rank, winner
        seat.save()


def test_records_from_seats_in_hand_are_those_read_from_the_database():
    verification.verify_logs(stored_logs([5, 4, 3, 2]))  # 2, 3, 3 and 2 seats
    first, second, third, fourth = Game.objects.order_by("played_at")
    # A tie for first: both win.
    seats_made(first, [("ann", 1, True), ("bob", 1, True)])
    # Seats without a player (bots) are not rated; two players still make a game.
    seats_made(second, [(None, 1, True), ("ann", 2, False), ("dee", 3, False)])
    # A player seated twice counts once, by the first seat.
    seats_made(third, [("cyd", 2, False), ("eve", 1, True), ("cyd", 1, True)])
    # One player among bots: not rated at all.
    seats_made(fourth, [("bob", 1, True), (None, 2, False)])
    from_database = {record.game_id: record for record in services.records_of(Game.objects.all())}

    in_hand = services.seated_records(Game.objects.all())

    assert {pk: record for pk, record in in_hand.items() if record} == from_database
    assert len(from_database) == 3
    assert in_hand[fourth.pk] is None
    assert from_database[first.pk].winners == {first.seats.get(seat=0).player_id} | {
        first.seats.get(seat=1).player_id
    }


def test_a_player_seated_twice_is_placed_by_their_first_seat_and_bots_are_not_placed():
    # (player, rank, winner) in seat order: player 7 sits first at rank 2, then wins at seat 3.
    seats = [(7, 2, False), (None, 1, True), (7, 1, True), (8, 3, False)]

    assert services.placings(seats) == ({7: 2, 8: 3}, frozenset())
