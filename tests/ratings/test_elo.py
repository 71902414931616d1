"""Elo: pairwise decomposition, incremental updates equal to a recompute, retraction."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Game
from games.signals import game_counted, game_retracted
from ratings.elo import elo_changes, expected_score
from ratings.models import Rating, RatingChange
from ratings.services import behind, rate_until_caught_up, recompute
from tests.ratings_support import hours_ago, stored_ratings, verified_game

FIELDS = ["player_id", "game_type", "rating", "mu", "sigma", "games", "wins", "last_played"]


def test_two_equal_players_move_by_half_of_k():
    changes = elo_changes({"a": 1500.0, "b": 1500.0}, {"a": 1, "b": 2})

    assert changes == {"a": 16.0, "b": -16.0}


def test_k_is_divided_by_table_size_minus_one():
    # Four equal players: the winner scores 3 pairs of (1 - 0.5); K/3 each.
    changes = elo_changes({p: 1500.0 for p in "abcd"}, {"a": 1, "b": 2, "c": 3, "d": 4})

    assert changes["a"] == pytest.approx(32 / 3 * 1.5)
    assert changes["d"] == pytest.approx(-32 / 3 * 1.5)
    assert changes["b"] == pytest.approx(32 / 3 * 0.5)


def test_upset_moves_more_than_an_expected_win():
    upset = elo_changes({"low": 1400.0, "high": 1600.0}, {"low": 1, "high": 2})
    expected = elo_changes({"low": 1400.0, "high": 1600.0}, {"low": 2, "high": 1})

    assert upset["low"] > expected["high"] > 0
    assert expected_score(1600, 1400) == pytest.approx(1 - expected_score(1400, 1600))


@settings(max_examples=50, deadline=None)
@given(
    ratings=st.lists(st.floats(1000, 2000), min_size=2, max_size=4),
    data=st.data(),
)
def test_rating_changes_sum_to_zero(ratings, data):
    ranks = data.draw(st.lists(st.integers(1, 4), min_size=len(ratings), max_size=len(ratings)))
    changes = elo_changes(dict(enumerate(ratings)), dict(enumerate(ranks)))

    assert sum(changes.values()) == pytest.approx(0, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(others=st.lists(st.floats(1000, 2000), min_size=0, max_size=2), data=st.data())
def test_equal_rated_tied_players_come_out_identical_whatever_the_input_order(others, data):
    players = {"p": 1500.0, "q": 1500.0, **{f"o{i}": r for i, r in enumerate(others)}}
    ranks = {"p": 2, "q": 2, **{f"o{i}": 1 + 2 * i for i in range(len(others))}}
    order = data.draw(st.permutations(list(players)))

    changes = elo_changes({p: players[p] for p in order}, {p: ranks[p] for p in order})

    assert changes["p"] == changes["q"]
    assert changes == elo_changes(players, ranks)


def stored():
    return list(Rating.objects.order_by("player_id", "game_type").values_list(*FIELDS))


@pytest.mark.django_db
def test_incremental_updates_equal_a_recompute():
    names = ["ann", "bob", "cyd", "dee", "eve"]
    for index, table in enumerate(
        itertools.islice(itertools.cycle(itertools.combinations(names, 3)), 8)
    ):
        verified_game(list(table), seed=index, played_at=hours_ago(20 - index))
    before = stored()

    recompute("deep-vents")

    assert stored() == before
    assert sum(games for *_, games, _w, _l in before) == 8 * 3


@pytest.mark.django_db
def test_an_older_game_verified_late_still_gives_the_recompute_numbers():
    verified_game(["ann", "bob"], seed=1, played_at=hours_ago(1))
    verified_game(["ann", "bob", "cyd"], seed=2, played_at=hours_ago(5))  # played earlier
    before = stored()

    recompute("deep-vents")

    assert stored() == before


@pytest.mark.django_db
def test_rating_a_game_twice_changes_nothing():
    game = verified_game(["ann", "bob", "cyd"], seed=3)
    before = stored()

    game_counted.send(sender=Game, game=game)  # counted again: pending again, then rated

    assert stored() == before
    assert RatingChange.objects.filter(game=game).count() == 3


@pytest.mark.django_db
def test_a_retracted_game_drops_out_of_the_ratings():
    kept = verified_game(["ann", "bob"], seed=4, played_at=hours_ago(3))
    retracted = verified_game(["ann", "bob"], seed=5, played_at=hours_ago(2))

    game_retracted.send(sender=type(retracted), game=retracted)
    retracted.log.delete()

    assert set(Rating.objects.values_list("games", flat=True)) == {1}
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {kept.pk}
    before = stored()
    recompute("deep-vents")
    assert stored() == before


@pytest.mark.django_db
def test_players_start_at_1500_and_are_provisional_until_ten_games():
    verified_game(["ann", "bob"], seed=6)
    ann = Rating.objects.get(player__handle="ann")
    change = RatingChange.objects.get(player__handle="ann")

    assert change.elo_before == 1500.0
    assert ann.provisional


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))
def test_catching_up_after_late_games_gives_the_full_recompute_numbers(seed, monkeypatch):
    import ratings.services

    rng = random.Random(seed)
    names = ["ann", "bob", "cyd", "dee", "eve", "fay"]
    for index in range(20):
        if index == 12:  # from now on the games wait for a rater, as with a broker
            monkeypatch.setattr(ratings.services, "rate_after_commit", lambda *args, **kwargs: None)
        # The first 12 arrive in order; the rest were played earlier than some rated games.
        played = 50 - index if index < 12 else rng.uniform(30, 50)
        verified_game(
            rng.sample(names, rng.choice([2, 3, 4])), seed=index, played_at=hours_ago(played)
        )
    assert behind() == ["deep-vents"]

    redone = rate_until_caught_up("deep-vents")
    caught_up = stored_ratings()
    recompute("deep-vents")

    assert 8 < redone < 20  # the late games, and only the rated ones after the earliest
    assert behind() == []
    assert stored_ratings() == caught_up


@pytest.mark.django_db
@pytest.mark.parametrize("k", [10.0, 32.0])
def test_the_ratings_elo_k_setting_sizes_every_change(k, settings):
    settings.RATINGS_ELO_K = k
    game = verified_game(["ann", "bob"], seed=7)

    # Two new players at 1500 (seed 7 has no tie): the winner gains K/2, the other loses it.
    changes = {c.won: c.elo_after - c.elo_before for c in RatingChange.objects.filter(game=game)}
    assert changes == {True: pytest.approx(k / 2), False: pytest.approx(-k / 2)}
