"""The player's rating chart hands the picture each date's seconds with its text
(common.chart_preview.Dates, a list of texts carrying their seconds; DateText for one date)
rather than having it read each text back: the page must
be the very one written from the texts alone (issue 25)."""

import copy
import datetime
import pickle
import types

import plotly.io as pio
import pytest
from django.urls import reverse

from common.chart_preview import Dates, DateText, as_number
from games.models import Game
from pages.services import profiles
from players.models import Player
from tests.ratings_support import hours_ago, verified_game


def test_a_date_carrying_its_seconds_is_written_and_read_as_its_text():
    moments = [
        datetime.datetime(2026, 3, 29, 1, 30, 15, 250, tzinfo=datetime.UTC),
        datetime.datetime(
            2026, 3, 29, 1, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=2))
        ),
        datetime.datetime(2025, 10, 26, 2, 30),  # naive: local time both ways
    ]
    for moment in moments:
        dated = DateText.of(moment)
        assert dated == moment.isoformat() and hash(dated) == hash(moment.isoformat())
        assert as_number(dated) == as_number(moment.isoformat())
        figure, of_text = {"data": [{"x": [dated]}]}, {"data": [{"x": [moment.isoformat()]}]}
        assert pio.to_json(figure, validate=False) == pio.to_json(of_text, validate=False)
        assert pio.to_json(figure) == pio.to_json(of_text)  # validated: deep-copied first
        for kept in (copy.deepcopy(dated), pickle.loads(pickle.dumps(dated))):
            assert (kept, kept.seconds) == (dated, dated.seconds)


def test_a_list_of_dates_carries_each_ones_seconds_and_is_written_as_their_text():
    moments = [
        datetime.datetime(2026, 3, 29, 1, 30, 15, 250, tzinfo=datetime.UTC),
        datetime.datetime(2026, 3, 29, 1, 30, tzinfo=datetime.UTC),
    ]

    dates = Dates.of(moments)

    texts = [moment.isoformat() for moment in moments]
    assert dates == texts and dates.seconds == [as_number(text) for text in texts]
    figure, of_text = {"data": [{"x": dates}]}, {"data": [{"x": texts}]}
    assert pio.to_json(figure, validate=False) == pio.to_json(of_text, validate=False)
    for kept in (copy.deepcopy(dates), pickle.loads(pickle.dumps(dates))):
        assert (kept, kept.seconds) == (dates, dates.seconds)


def written_from_text(player: Player, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """The chart as it was written before: each date as its isoformat text alone."""
    with monkeypatch.context() as patched:
        as_text = types.SimpleNamespace(of=lambda moments: [m.isoformat() for m in moments])
        patched.setattr(profiles, "Dates", as_text)
        return profiles.rating_history_figure(player)


@pytest.mark.django_db
@pytest.mark.parametrize("spread_hours", [1, 24 * 5, 24 * 40])
def test_the_rating_chart_is_the_one_written_from_each_dates_text(spread_hours, monkeypatch):
    for n, seed in enumerate((21, 22, 23, 24)):
        names = ["ann", "bob", "cyd"][: 2 + n % 2]
        verified_game(names, seed=seed, played_at=hours_ago(spread_hours * (4 - n) / 4))
    ann = Player.objects.get(handle="ann")

    chart = profiles.rating_history_figure(ann)

    assert chart is not None and '<svg class="chart-preview-picture"' in chart
    assert chart == written_from_text(ann, monkeypatch)


@pytest.mark.django_db
def test_a_games_link_is_the_one_reverse_writes():
    verified_game(["ann", "bob"], seed=21, played_at=hours_ago(2))
    verified_game(["ann", "cyd"], seed=22, played_at=hours_ago(1))

    for game in Game.objects.all():
        assert game.get_absolute_url() == reverse("games:log", args=[game.log_id])
