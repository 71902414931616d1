"""The desk offers "Start the timer" only while the latest round has no timer running; while
one runs it says until when (in the site's time zone), and a start posted then is refused
(409) with nothing changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db

START_BUTTON = 'id="start-timer"'
RUNNING_LINE = 'id="timer-running"'


def run_timer(seated, started_at: datetime, minutes: int):
    round_ = seated.tournament.rounds.get()
    round_.timer_started_at = started_at
    round_.timer_minutes = minutes
    round_.save()
    return round_


def test_the_desk_offers_to_start_the_timer_while_none_runs(seated):
    page = seated.client(seated.organiser).get(seated.url("desk/")).content.decode()

    assert START_BUTTON in page
    assert RUNNING_LINE not in page


def test_while_a_timer_runs_the_desk_says_until_when_in_the_sites_time(seated, settings):
    settings.TIME_ZONE = "Asia/Kolkata"  # UTC+05:30 all year, so a UTC slip shows
    started = timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=10)
    run_timer(seated, started, 45)
    ends_utc = started.astimezone(UTC) + timedelta(minutes=45)
    ends_in_kolkata = ends_utc + timedelta(hours=5, minutes=30)

    page = seated.client(seated.organiser).get(seated.url("desk/")).content.decode()

    assert START_BUTTON not in page
    assert f"<p {RUNNING_LINE}>Round 1's timer runs until {ends_in_kolkata:%H:%M}</p>" in page


def test_a_timer_that_is_over_can_be_started_again(seated):
    run_timer(seated, timezone.now() - timedelta(hours=2), 45)
    client = seated.client(seated.organiser)

    assert START_BUTTON in client.get(seated.url("desk/")).content.decode()
    response = client.post(seated.url("desk/timer/"), {"minutes": "30"})

    assert response.status_code == 302
    assert seated.tournament.rounds.get().timer_minutes == 30


def test_starting_a_timer_that_runs_is_refused_and_changes_nothing(seated):
    running = run_timer(seated, timezone.now() - timedelta(minutes=5), 45)
    started = running.timer_started_at

    response = seated.client(seated.organiser).post(seated.url("desk/timer/"), {"minutes": "60"})

    assert response.status_code == 409
    assert "round 1&#x27;s timer already runs until" in response.content.decode()
    round_ = seated.tournament.rounds.get()
    assert (round_.timer_started_at, round_.timer_minutes) == (started, 45)
