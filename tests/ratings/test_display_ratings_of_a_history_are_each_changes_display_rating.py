"""A rating history's OpenSkill ratings, made in one pass (ratings.skill.display_ratings, for
the player's chart of thousands of games, issue 25), are each change's display_rating."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.skill import display_rating, display_ratings, ordinal


def test_display_ratings_of_a_history_are_each_changes_display_rating():
    mus = [25.0, 31.7, 18.3, 0.5, 27.123456789, 25 + 1 / 3]
    sigmas = [25 / 3, 2.1, 7.9, 9.0, 0.8375, 1 / 7]

    shown = display_ratings(mus, sigmas)

    assert shown == [display_rating(ordinal(skill)) for skill in zip(mus, sigmas, strict=True)]
    assert 0 in shown  # floored, as display_rating floors


# Multiples of 1/80 put 1000 + 40 x (mu - 3 sigma) on halves, where rounding is decided.
values = st.one_of(st.floats(-50, 80), st.integers(-4000, 6400).map(lambda n: n / 80))


@given(st.lists(st.tuples(values, st.floats(0, 30) | st.integers(0, 800).map(lambda n: n / 80))))
def test_display_ratings_round_halves_and_floor_at_zero_as_display_rating_does(skills):
    mus = [mu for mu, _ in skills]
    sigmas = [sigma for _, sigma in skills]

    assert display_ratings(mus, sigmas) == [display_rating(ordinal(skill)) for skill in skills]


def test_display_ratings_refuse_mus_and_sigmas_of_different_lengths():
    with pytest.raises(ValueError, match="2 mus for 1 sigmas"):
        display_ratings([25.0, 26.0], [8.0])
