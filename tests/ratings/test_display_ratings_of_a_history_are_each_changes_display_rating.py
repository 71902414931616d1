"""A rating history's OpenSkill ratings, made in one pass (ratings.skill.display_ratings, for
the player's chart of thousands of games, issue 25), are each change's display_rating."""

from ratings.skill import display_rating, display_ratings, ordinal


def test_display_ratings_of_a_history_are_each_changes_display_rating():
    mus = [25.0, 31.7, 18.3, 0.5, 27.123456789, 25 + 1 / 3]
    sigmas = [25 / 3, 2.1, 7.9, 9.0, 0.8375, 1 / 7]

    shown = display_ratings(mus, sigmas)

    assert shown == [display_rating(ordinal(skill)) for skill in zip(mus, sigmas, strict=True)]
    assert 0 in shown  # floored, as display_rating floors
