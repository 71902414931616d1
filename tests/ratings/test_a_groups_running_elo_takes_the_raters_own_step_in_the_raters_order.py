"""The Elo a verified group is banded by before the rater has taken it in
(ratings.services.running_elo) is the Elo going into each game that Rater.apply gives
rating the same games in the rating order (rating_order: played time, then id): one Elo
step (ratings.rater.elo_step) and one order for both (issue 25). No database: the games and
seats are unsaved instances, as the verifier hands them over."""

from datetime import UTC, datetime, timedelta

from games.models import Game, GameSeat
from ratings.rater import Rater
from ratings.services import elo_k, running_elo, seated_record

START = datetime(2026, 3, 1, tzinfo=UTC)
TYPE = "deep-vents"


def game(game_id: int, hour: int, placed: list[tuple[int | None, int]], counts=True):
    """A game played `hour` hours after START, its seats' (player, rank) in seat order."""
    played = Game(pk=game_id, game_type=TYPE, played_at=START + timedelta(hours=hour))
    played.counts = counts
    seats = [
        GameSeat(game_id=game_id, seat=seat, player_id=player, rank=rank, winner=rank == 1)
        for seat, (player, rank) in enumerate(placed)
    ]
    return played, seats


def test_running_elo_is_the_elo_going_into_each_game_the_rater_gives_in_its_order(settings):
    settings.RATINGS_ELO_K = 200.0
    built = [
        # Out of played order, a tie, two games at one moment (ordered by id), a bot, a
        # player seated twice, a game that does not count and one of a single player.
        game(14, 5, [(1, 1), (2, 2), (3, 2)]),
        game(11, 2, [(2, 1), (1, 2)]),
        game(13, 5, [(3, 1), (None, 2), (1, 3)]),
        game(12, 3, [(1, 1), (4, 2), (1, 3), (2, 4)]),
        game(15, 4, [(4, 1), (3, 2)], counts=False),
        game(16, 6, [(4, 1), (None, 2)]),
        game(17, 7, [(4, 1), (3, 2), (2, 3), (1, 4)]),
    ]
    games = [played for played, _ in built]
    seats = {played.pk: placed for played, placed in built}
    current = {(TYPE, 1): 1580.0, (TYPE, 2): 1430.0}  # players 3 and 4 not rated yet

    going_into = running_elo(games, seats, current)

    rater = Rater(elo_k())
    rater.get(1).elo, rater.get(2).elo = 1580.0, 1430.0
    rated = set(current)
    expected = {}
    for played in sorted(games, key=lambda played: (played.played_at, played.pk)):
        for seat in seats[played.pk]:
            if (TYPE, seat.player_id) in rated:
                expected[played.pk, seat.player_id] = rater.get(seat.player_id).elo
        record = seated_record(played, seats[played.pk])
        if record is not None and played.counts:
            rater.apply(record)
            rated |= {(TYPE, player) for player in record.ranks}
    assert going_into == expected
    assert going_into[17, 4] != going_into[17, 3]  # players moved apart by the games before
