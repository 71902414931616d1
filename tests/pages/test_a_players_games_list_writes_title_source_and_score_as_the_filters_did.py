"""A player's games list writes each row's game title, source and score in Python (issue 25:
looked up through the seat and its game by the template, with floatformat's Decimal, they
were some 60 microseconds a row): the same text as `|game_title`, `get_source_display` and
`|floatformat:"-1"` wrote."""

import pytest
from django.template import Context, Template

from games.models import Game, GameSeat
from players.models import Player
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db

AS_THE_TEMPLATE_WROTE_IT = Template(
    "{% load names %}{{ s.game.game_type|game_title }}|{{ s.game.get_source_display }}|"
    '{{ s.score|floatformat:"-1" }}'
)


def test_each_rows_title_source_and_score_are_what_the_template_filters_gave(client):
    verified_game(["ann", "bob", "cyd"], seed=41, played_at=hours_ago(3))
    verified_game(["bob", "ann"], seed=42, played_at=hours_ago(2))
    verified_game(["cyd", "ann"], seed=43, played_at=hours_ago(1))
    verified_game(["ann", "cyd"], seed=44, played_at=hours_ago(0.5))
    ann = Player.objects.get(handle="ann")
    # Scores the games did not give: a half, a negative, a long fraction, a large whole one.
    seats = GameSeat.objects.filter(player=ann).order_by("game__played_at")
    for seat, score in zip(seats, [12.5, -3.0, 2 / 3, 1234567.0], strict=True):
        GameSeat.objects.filter(pk=seat.pk).update(score=score)
    Game.objects.filter(seats__player=ann, seats__score=-3.0).update(source="tournament")

    seats = list(client.get("/players/ann/").context["seats"])

    written = [f"{s.title}|{s.source}|{s.score_shown}" for s in seats]
    assert written == [AS_THE_TEMPLATE_WROTE_IT.render(Context({"s": s})) for s in seats]
    assert {s.source for s in seats} == {"Human", "Tournament"} and len(written) == 4
