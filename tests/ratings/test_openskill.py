"""OpenSkill (Weng-Lin Plackett-Luce) alongside Elo."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.models import Rating
from ratings.skill import MODEL, START_MU, START_SIGMA, skill_changes, win_probabilities
from tests.ratings_support import verified_game


def test_the_winner_gains_mu_and_everyone_grows_more_certain():
    start = {p: (START_MU, START_SIGMA) for p in "abc"}

    after = skill_changes(start, {"a": 1, "b": 2, "c": 3})

    assert after["a"][0] > START_MU > after["c"][0]
    assert all(sigma < START_SIGMA for _, sigma in after.values())


@settings(max_examples=25, deadline=None)
@given(
    mu=st.floats(15, 35),
    other=st.tuples(st.floats(15, 35), st.floats(1, 8)),
    data=st.data(),
)
def test_equal_rated_tied_players_come_out_identical_whatever_the_input_order(mu, other, data):
    skills = {"p": (mu, 5.0), "q": (mu, 5.0), "o": other}
    ranks = {"p": 1, "q": 1, "o": 3}
    order = data.draw(st.permutations(list(skills)))

    after = skill_changes({k: skills[k] for k in order}, {k: ranks[k] for k in order})

    assert after["p"] == after["q"]
    assert after == skill_changes(skills, ranks)


def library_changes(skills, ranks):
    """openskill's own PlackettLuce.rate, given the players in skill_changes' order."""
    order = sorted(ranks, key=lambda p: (ranks[p], skills[p]))
    teams = [[MODEL.rating(mu=skills[p][0], sigma=skills[p][1])] for p in order]
    rated = MODEL.rate(teams, ranks=[ranks[p] for p in order])
    return {p: (team[0].mu, team[0].sigma) for p, team in zip(order, rated, strict=True)}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-10, 60), st.floats(0.01, 9), st.integers(1, 6)),
        min_size=2,
        max_size=6,
    )
)
def test_skill_changes_are_the_openskill_librarys_to_the_last_bit(table):
    skills = {seat: (mu, sigma) for seat, (mu, sigma, _) in enumerate(table)}
    ranks = {seat: rank for seat, (_, _, rank) in enumerate(table)}  # ties included

    assert skill_changes(skills, ranks) == library_changes(skills, ranks)


def test_win_probabilities_favour_the_stronger_and_sum_to_one():
    probabilities = win_probabilities([(30.0, 3.0), (20.0, 3.0), (25.0, 3.0)])

    assert probabilities[0] == max(probabilities)
    assert sum(probabilities) == pytest.approx(1)


@pytest.mark.django_db
def test_verified_games_update_openskill_with_elo():
    verified_game(["ann", "bob", "cyd"], seed=11)

    ratings = Rating.objects.all()
    assert ratings.count() == 3
    assert any(r.mu != START_MU for r in ratings)
    assert all(r.sigma < START_SIGMA for r in ratings)
