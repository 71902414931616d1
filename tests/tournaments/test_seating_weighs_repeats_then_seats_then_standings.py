"""Worked examples of the seating's cost order: a repeat meeting outweighs seat balance,
which outweighs the spread of standings at a table (tournaments/services/seating.py).

Eight players, two tables of four, standings 0 (best) to 7. After three rounds each player
has sat in three of the four seats; the seat they still need is the one they have never
taken (seat 0 opens the bidding, DV-3)."""

import itertools
import random
from collections import Counter

from tournaments.services.seating import plan_tables

PLAYERS = list(range(8))


def seats_needing(needs: dict[int, int]) -> dict[int, Counter]:
    """Seat counts after three rounds: once in every seat but the one each player needs."""
    return {p: Counter({s: 1 for s in range(4) if s != need}) for p, need in needs.items()}


def met_once(*pairs: tuple[int, int]) -> Counter:
    return Counter(frozenset(pair) for pair in pairs)


def plan(**history) -> list[list[int]]:
    return plan_tables(PLAYERS, sizes=[4, 4], rng=random.Random(5), **history)


def meetings_again(tables: list[list[int]], met: Counter) -> int:
    return sum(met[frozenset(p)] for t in tables for p in itertools.combinations(t, 2))


def test_without_history_players_of_similar_standing_sit_together():
    tables = plan()

    assert [sorted(t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_seat_balance_beats_standings():
    # 0 and 1 both need seat 3, 2 and 3 seat 2, 4 and 5 seat 1, 6 and 7 seat 0: the pods
    # by standing ({0,1,2,3}) would give two players a seat twice; balance splits each pair.
    needs = {p: 3 - p // 2 for p in PLAYERS}

    tables = plan(seats=seats_needing(needs))

    for table in tables:
        assert sorted(needs[p] for p in table) == [0, 1, 2, 3]
        # ... and each sits in the seat they need: seat order is stored (position 0 first).
        assert [needs[p] for p in table] == [0, 1, 2, 3]


def test_a_repeat_beats_seat_balance():
    # Needs by class: 0 and 4 need seat 0, 1 and 5 seat 1, 2 and 6 seat 2, 3 and 7 seat 3.
    # Every balanced split puts one of {0, 4} with one of {1, 5}, and those four met each
    # other across the classes: balance would cost a repeat, so it gives way.
    needs = {p: p % 4 for p in PLAYERS}
    met = met_once((0, 1), (0, 5), (4, 1), (4, 5))

    tables = plan(seats=seats_needing(needs), met=met)

    assert meetings_again(tables, met) == 0
    together = {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
    assert frozenset((0, 4)) in together and frozenset((1, 5)) in together


def test_a_pair_meeting_a_third_time_costs_more_than_two_pairs_meeting_a_second_time():
    # 0 and 1 met twice; each of them met 5 and 6 once. Standings alone seat {0,1,2,3}: a
    # third meeting, which, squared as dipvis does, costs 2 x 2 = 4: more
    # than 1 meeting 5 and 6 again (1 + 1). Counted linearly the two would tie (2 and 2).
    met = Counter({frozenset((0, 1)): 2})
    met.update(met_once((0, 5), (0, 6), (1, 5), (1, 6)))

    tables = plan(met=met)

    together = {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
    assert frozenset((0, 1)) not in together
    cheapest = min(
        sum(met[frozenset(p)] ** 2 for t in split for p in itertools.combinations(t, 2))
        for split in all_splits()
    )
    assert cheapest == 2
    assert sum(met[pair] ** 2 for pair in together) == cheapest


def all_splits() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [
        (first, tuple(p for p in PLAYERS if p not in first))
        for first in itertools.combinations(PLAYERS, 4)
        if 0 in first
    ]


def test_the_same_seed_gives_the_same_seating():
    needs = {p: p % 4 for p in PLAYERS}
    history = {"seats": seats_needing(needs), "met": met_once((0, 1), (2, 3))}

    assert plan(**history) == plan(**history)
