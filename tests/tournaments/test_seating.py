"""Seating: table sizes, small tables for the lowest standings, repeat tablemates."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.services.seating import SeatingError, plan_tables, table_sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (9, [3, 3, 3]),
        (13, [4, 3, 3, 3]),
        (23, [4, 4, 4, 4, 4, 3]),
        (24, [4] * 6),
    ],
)
def test_table_sizes_use_as_many_fours_as_possible_filled_with_threes(players, sizes):
    assert table_sizes(players) == sizes


def test_one_player_cannot_be_seated():
    with pytest.raises(SeatingError, match="at least 2"):
        table_sizes(1)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=6, max_value=200))
def test_table_sizes_seat_everyone_in_threes_and_fours(players):
    sizes = table_sizes(players)

    assert sum(sizes) == players
    assert set(sizes) <= {3, 4}
    assert sizes.count(3) <= 3  # four threes would be three fours


def test_lowest_standings_get_the_smaller_table():
    tables = plan_tables(list(range(1, 8)))

    assert [len(t) for t in tables] == [4, 3]
    assert sorted(tables[1]) == [5, 6, 7]


def test_nobody_sits_at_a_smaller_table_twice_in_a_row_when_avoidable():
    tables = plan_tables(list(range(1, 8)), small_last_round=[5, 6, 7])

    assert not set(tables[1]) & {5, 6, 7}
    assert sorted(tables[1]) == [2, 3, 4]


def test_a_smaller_table_twice_in_a_row_only_when_unavoidable():
    # Six of seven sat small last round: the one who did not, and the two lowest, sit small.
    tables = plan_tables(list(range(1, 8)), small_last_round=[2, 3, 4, 5, 6, 7])

    assert sorted(tables[1]) == [1, 6, 7]


def test_those_never_at_a_smaller_table_go_before_those_who_were():
    tables = plan_tables(list(range(1, 8)), small_before=Counter({7: 1, 6: 1}))

    assert sorted(tables[1]) == [3, 4, 5]


def test_similar_standings_sit_together_without_history():
    tables = plan_tables(list(range(1, 13)))

    assert [sorted(t) for t in tables] == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]


def test_repeat_tablemates_are_a_penalty_that_reshuffles_the_pods():
    order = list(range(1, 9))
    met = Counter(
        frozenset(p) for t in ([1, 2, 3, 4], [5, 6, 7, 8]) for p in itertools.combinations(t, 2)
    )

    tables = plan_tables(order, met=met)

    repeats = sum(met[frozenset(p)] for t in tables for p in itertools.combinations(t, 2))
    assert repeats < 12  # every pair repeated would be 12


def test_round_robin_ignores_standings_and_avoids_repeats():
    order = list(range(1, 9))
    met = Counter(
        frozenset(p) for t in ([1, 2, 3, 4], [5, 6, 7, 8]) for p in itertools.combinations(t, 2)
    )

    tables = plan_tables(order, met=met, group_by_standing=False)

    assert sum(met[frozenset(p)] for t in tables for p in itertools.combinations(t, 2)) == 4
