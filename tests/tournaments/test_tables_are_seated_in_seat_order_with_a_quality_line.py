"""Seating stores each table in the order its seats mean to the game (the engine says
which), seats every registered player at tables the game allows, and the seating page
shows the round's pairing quality (checked against counts made here from the seats)."""

import itertools
import random
import re
import time
from collections import Counter

import pytest

from engines.registry import GAMES, get_game
from tests.pairing_support import give_random_results, tournament_of
from tournaments.models import Registration, TableSeat
from tournaments.services.seating import (
    players_to_seat,
    seat_next_round,
    table_sizes,
    tournament_table_sizes,
)


def test_engines_say_what_a_seat_means_citing_their_rulings():
    vents = get_game("deep-vents")

    bid = vents.seat_order(vents.ruleset({"name": "starting-bid"}))
    standard = vents.seat_order(vents.ruleset({"name": "standard"}))

    assert (bid.meaning, bid.rule, dict(bid.setup)) == (
        "bidding order",
        "DV-3",
        {"opening_bidder": 0},
    )
    assert bid.opens_bidding
    assert (standard.rule, dict(standard.setup), standard.opens_bidding) == (
        "DV-16",
        {"first_player": 0},
        False,
    )
    for game_id, rule in [("deep-sea-adventure", "DSA-8"), ("deep-dive", "DD-6")]:
        game = get_game(game_id)
        order = game.seat_order(game.ruleset())
        assert (order.meaning, order.rule, dict(order.setup)) == ("turn order", rule, {})


@pytest.mark.parametrize(
    ("players", "smallest", "largest", "sizes"),
    [
        (2, 2, 4, [2]),
        (5, 2, 4, [3, 2]),  # Deep Vents: 2s only where nothing else adds up
        (6, 2, 4, [3, 3]),
        (5, 2, 6, [5]),  # Deep Sea Adventure seats five at one table
        (7, 2, 6, [4, 3]),
        (10, 2, 6, [5, 5]),  # as close to 4 as [4, 3, 3]: fewer tables decide
    ],
)
def test_table_sizes_keep_to_the_games_player_counts(players, smallest, largest, sizes):
    assert table_sizes(players, smallest=smallest, largest=largest) == sizes


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_player_count_the_game_allows_is_seated_without_a_bye(game_id):
    game = get_game(game_id)
    for players in range(game.min_players, 61):
        sizes = table_sizes(players, smallest=game.min_players, largest=game.max_players)
        assert sum(sizes) == players
        assert all(game.min_players <= size <= game.max_players for size in sizes)
        assert sizes == sorted(sizes, reverse=True)


@pytest.mark.django_db
def test_a_starting_bid_table_lists_its_opening_bidder_first():
    tournament = tournament_of(9)

    round_ = seat_next_round(tournament)

    for table in round_.tables.all():
        seats = list(table.seats.order_by("seat"))
        assert [s.seat for s in seats] == [0, 1, 2]
        assert [s.opening_bidder for s in seats] == [True, False, False]


@pytest.mark.django_db
def test_a_deep_sea_adventure_table_seats_five_and_marks_no_bidder():
    tournament = tournament_of(5, game_type="deep-sea-adventure", ruleset="standard")

    round_ = seat_next_round(tournament)

    assert tournament_table_sizes(tournament, 5) == [5]
    assert [t.seats.count() for t in round_.tables.all()] == [5]
    assert not TableSeat.objects.filter(opening_bidder=True).exists()


@pytest.mark.django_db
def test_dropped_and_late_players_are_seated_only_in_their_rounds():
    tournament = tournament_of(8)
    dropped, late = tournament.registrations.order_by("player__handle")[:2]
    Registration.objects.filter(pk=dropped.pk).update(dropped_after_round=1)
    Registration.objects.filter(pk=late.pk).update(joined_round=2)

    first = {r.player_id for r in players_to_seat(tournament, 1)}
    second = {r.player_id for r in players_to_seat(tournament, 2)}

    assert late.player_id not in first and dropped.player_id in first
    assert dropped.player_id not in second and late.player_id in second


@pytest.mark.django_db
def test_the_same_seed_seats_the_same_tables():
    def seated(slug: str) -> list[list[str]]:
        round_ = seat_next_round(tournament_of(12, slug=slug, seed="same seed"))
        return [[s.player.handle for s in t.seats.order_by("seat")] for t in round_.tables.all()]

    assert seated("first") == seated("second")


def seats_and_meetings(tournament, through: int) -> tuple[Counter, Counter, dict]:
    """Counted here from the stored seats: meetings up to `through` and before it, and
    each player's positions (counted from the opening bidder, clockwise)."""
    met, before, positions = Counter(), Counter(), {}
    for round_ in tournament.rounds.filter(number__lte=through):
        for table in round_.tables.all():
            seats = list(table.seats.order_by("seat"))
            opener = next(s.seat for s in seats if s.opening_bidder)
            pairs = [frozenset(p) for p in itertools.combinations([s.player for s in seats], 2)]
            met.update(pairs)
            if round_.number < through:
                before.update(pairs)
            for s in seats:
                position = (s.seat - opener) % len(seats)
                positions.setdefault(s.player.handle, Counter())[position] += 1
    return met, before, positions


@pytest.mark.django_db
def test_the_seating_page_shows_repeats_and_each_players_seats(client):
    tournament = tournament_of(8, rounds_planned=4)
    rng = random.Random(3)
    for _ in range(3):
        give_random_results(seat_next_round(tournament), rng)

    page = client.get("/tournaments/cup/round/3/").content.decode()

    met, before, positions = seats_and_meetings(tournament, 3)
    again = sum(1 for pair in met if met[pair] > before[pair] and before[pair])
    repeated = sum(times - 1 for times in met.values())
    spread = max(
        max(c[p] for p in range(4)) - min(c[p] for p in range(4)) for c in positions.values()
    )
    line = re.search(r'<p id="pairing-quality-line">(.*?)</p>', page, re.S).group(1)
    assert f"<strong>{again}</strong> pair" in line
    assert f"<strong>{repeated}</strong> repeated meeting" in line
    assert f"at most <strong>{spread}</strong>" in line
    assert "bidding order" in line
    for handle, counts in positions.items():
        cells = "".join(f"<td>{counts[p]}</td>" for p in range(4))
        assert f'<th scope="row">@{handle}</th>{cells}' in page
    # Eight players in two pods of four over three rounds cannot avoid meeting again.
    assert repeated > 0


@pytest.mark.django_db
def test_thirty_two_players_are_seated_within_two_seconds_of_processor_time():
    tournament = tournament_of(32, rounds_planned=5)
    rng = random.Random(9)
    for _ in range(2):
        give_random_results(seat_next_round(tournament), rng)

    started = time.process_time()
    seat_next_round(tournament)

    assert time.process_time() - started <= 2.0
