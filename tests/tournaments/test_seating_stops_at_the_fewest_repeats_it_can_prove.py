"""The seating search stops once it reaches the fewest repeat meetings it can prove, instead
of spending its whole budget (counted in swaps weighed, never seconds)."""

import random
from collections import Counter

import pytest

from tournaments.services import seating
from tournaments.services.seating import REPEAT_WORK_PER_PAIR, _Planner, plan_tables, table_sizes


def floor(players: int, rounds: int) -> int:
    return _Planner(
        list(range(players)),
        table_sizes(players),
        rounds=rounds,
        met=Counter(),
        seats={},
        small_before=Counter(),
        small_last_round=set(),
        spread_weight=1,
        rng=random.Random(0),
    ).repeats_floor


@pytest.mark.parametrize(
    ("players", "rounds", "least"),
    [
        # 4, 4 and 3: each 4 has two players from one table of any earlier round.
        (11, 3, 12),
        (11, 5, 40),
        # 4, 4 and 4: each 4 has two players from one table of any earlier round.
        (12, 3, 18),
        (12, 5, 60),
        # 4, 3 and 3: 60 meetings over 5 rounds among 45 pairs.
        (10, 5, 30),
        # 16 in 4s can play 5 rounds without a repeat (an affine plane).
        (16, 5, 0),
    ],
)
def test_the_floor_under_repeats_counts_what_no_seating_avoids(players, rounds, least):
    # The cost is the sum over pairs of c(c - 1), c their meetings in the plan.
    assert floor(players, rounds) == least


def test_eleven_players_are_seated_at_the_floor_with_a_small_share_of_the_budget(monkeypatch):
    weighed = []
    search = seating._Planner.avoid_repeats

    def counted(self, work, keep_first=False):
        weighed.append(search(self, work, keep_first))
        return weighed[-1]

    monkeypatch.setattr(seating._Planner, "avoid_repeats", counted)
    tables = plan_tables(list(range(11)), rounds_ahead=2, rng=random.Random(1))

    assert sorted(map(len, tables)) == [3, 4, 4]
    # The budget was 605,000 swaps weighed per search, all spent when the floor was 0.
    assert sum(weighed) < REPEAT_WORK_PER_PAIR * 11 * 11 // 100
