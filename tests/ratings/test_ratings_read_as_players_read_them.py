"""Ratings as players read them (issue 27): OpenSkill as a positive display rating, provisional
ratings marked "?" as lichess does, and a one-game rating chart without silly axes."""

import datetime

from pages.services.profiles import date_axis, rating_axis
from ratings.leaderboard import Row
from ratings.skill import display_rating


def test_a_newcomer_shows_1000_and_each_ordinal_point_is_40_display_points():
    assert display_rating(25 - 3 * 25 / 3) == 1000  # openskill's starting mu and sigma
    assert display_rating(29.35) == 2174  # 1000 + 40 x 29.35 = 2174
    assert display_rating(-11.14) == 554  # 1000 - 445.6, rounded


def test_the_display_rating_never_goes_below_zero():
    assert display_rating(-25) == 0
    assert display_rating(-40) == 0


class Someone:
    display_name = "Ann Abyss"
    handle = "ann"  # a row links to /players/ann/, the player's get_absolute_url()


def test_a_provisional_players_ratings_are_marked_with_a_question_mark():
    provisional = Row(Someone(), elo=1520.4, openskill=2.0, games=3, wins=1).html()
    established = Row(Someone(), elo=1520.4, openskill=2.0, games=12, wins=5).html()

    assert ">1520<abbr" in provisional and ">1080<abbr" in provisional
    assert '<a href="/players/ann/">Ann Abyss</a>' in provisional
    assert provisional.count('class="provisional"') == 2
    assert "?" not in established and ">1520<" in established and ">1080<" in established


def test_a_single_game_is_charted_over_three_days_with_day_ticks():
    played = datetime.datetime(2026, 11, 3, 5, 38, 34, 978500, tzinfo=datetime.UTC)

    axis = date_axis(played, played)

    assert axis["range"] == ["2026-11-02", "2026-11-04"]
    assert axis["dtick"] == 86_400_000 and axis["tickformat"] == "%Y-%m-%d"


def test_a_long_history_keeps_plotlys_own_date_ticks_at_day_resolution():
    first = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)

    axis = date_axis(first, first + datetime.timedelta(days=90))

    assert "range" not in axis and "dtick" not in axis and axis["tickformat"] == "%Y-%m-%d"


def test_two_close_ratings_get_an_axis_60_points_tall_in_whole_points():
    assert rating_axis([1504.5, 1506.5]) == {"tickformat": "d", "range": [1475.5, 1535.5]}
    assert rating_axis([1400.0, 1600.0]) == {"tickformat": "d"}
