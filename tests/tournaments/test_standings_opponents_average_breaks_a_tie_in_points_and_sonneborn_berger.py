"""A worked example where only the opponents' average points (the second tiebreak,
tournaments/services/standings.py) separates two players: points and Sonneborn-Berger tie,
and every later tiebreak would put them the other way round."""

import pytest

from tournaments.services.standings import TableResult, compute_standings

ANNA, BRUNO, CARLA, DAVID, ELENA, FELIX, GRETA, HUGO = range(1, 9)


def duel(round_number: int, table: int, winner: int, loser: int, scores=(0, 0)) -> TableResult:
    ranks = {winner: 1, loser: 2}
    return TableResult(round_number, table, ranks, dict(zip(ranks, scores, strict=True)), True)


def tie(round_number: int, table: int, first: int, second: int) -> TableResult:
    return TableResult(round_number, table, {first: 1, second: 1}, {}, True)


@pytest.fixture
def standings():
    results = [
        # Round 1: Anna beats Carla, Bruno beats David, Elena beats Greta, Hugo beats Felix.
        duel(1, 1, ANNA, CARLA, (40, 20)),
        duel(1, 2, BRUNO, DAVID, (45, 20)),
        duel(1, 3, ELENA, GRETA),
        duel(1, 4, HUGO, FELIX),
        # Round 2: Elena beats Anna, Felix beats Bruno, Carla and David tie.
        duel(2, 1, ELENA, ANNA, (50, 30)),
        duel(2, 2, FELIX, BRUNO, (50, 35)),
        tie(2, 3, CARLA, DAVID),
    ]
    # Bruno's seeded draw is the better one (lower).
    draws = dict.fromkeys(range(ANNA, HUGO + 1), 0.5)
    draws[ANNA], draws[BRUNO] = 0.2, 0.1
    return {row.player_id: row for row in compute_standings(results, draws)}


def test_anna_and_bruno_tie_on_points_and_sonneborn_berger(standings):
    anna, bruno = standings[ANNA], standings[BRUNO]

    # Two-player tables: a win is 3 points, a tie 1.5 each, a loss 0.
    # Anna: won round 1, lost round 2: 3. Bruno the same: 3.
    assert anna.points == bruno.points == 3.0
    # Sonneborn-Berger: the final points of each opponent beaten, divided by (2 - 1).
    # Anna beat Carla (lost round 1, tied round 2: 1.5); Bruno beat David (the same: 1.5).
    assert standings[CARLA].points == standings[DAVID].points == 1.5
    assert anna.sonneborn_berger == bruno.sonneborn_berger == 1.5


def test_the_opponents_average_puts_anna_ahead(standings):
    anna, bruno = standings[ANNA], standings[BRUNO]

    # Anna met Carla (1.5) and Elena (won both: 6): (1.5 + 6) / 2 = 3.75.
    # Bruno met David (1.5) and Felix (lost to Hugo, beat Bruno: 3): (1.5 + 3) / 2 = 2.25.
    assert standings[ELENA].points == 6.0 and standings[FELIX].points == 3.0
    assert anna.opponents_average == pytest.approx(3.75)
    assert bruno.opponents_average == pytest.approx(2.25)

    assert anna.position < bruno.position


def test_every_later_tiebreak_would_have_put_bruno_ahead(standings):
    anna, bruno = standings[ANNA], standings[BRUNO]

    # Average placement: both were 1st then 2nd: 1.5 each, no help.
    assert anna.average_placement == bruno.average_placement == 1.5
    # Total game score: Anna 40 + 30 = 70, Bruno 45 + 35 = 80; then the draw: Bruno's 0.1.
    assert (anna.total_score, bruno.total_score) == (70, 80)
    assert bruno.draw < anna.draw
