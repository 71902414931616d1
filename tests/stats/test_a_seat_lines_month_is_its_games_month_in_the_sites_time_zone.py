"""A seat line's month is the month its game was played in the site's time zone (the month
filters read it so), whether its group's lines are built together (build_lines_of reads the
time zone once a group, issue 25) or the game's alone."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.db.models import prefetch_related_objects
from django.utils import timezone
from stats_support import verified_games

from stats.services.bands import group_bands
from stats.services.lines import build_lines, build_lines_of

pytestmark = pytest.mark.django_db

# 20:00 on 31 March in UTC is 1 April, 09:00 in Auckland (NZDT, UTC+13).
LATE_IN_MARCH = datetime.datetime(2026, 3, 31, 20, 0, tzinfo=datetime.UTC)


def test_a_game_late_on_the_last_of_march_in_utc_counts_in_april_in_auckland(
    django_capture_on_commit_callbacks,
):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 2, "month")
    prefetch_related_objects(games, "seats")
    for game in games:
        game.played_at = LATE_IN_MARCH

    with timezone.override(ZoneInfo("Pacific/Auckland")):
        together = build_lines_of(games, group_bands(games))
        alone = [build_lines(game) for game in games]

    for lines in (*together, *alone):
        assert {line.month for line in lines.seats} == {datetime.date(2026, 4, 1)}
