"""The player's rating chart is pictured from each date's seconds, read by the database with
the points (pages.services.profiles.picture_lines), rather than from each date's text: the
picture must be the very one drawn from the texts (issue 25)."""

import pytest
from django.urls import reverse

from common.chart_preview import preview
from games.models import Game
from pages.services import profiles
from players.models import Player
from ratings.models import RatingChange
from ratings.skill import display_ratings
from tests.ratings_support import hours_ago, verified_game


def written_from_text(player: Player) -> str | None:
    """The chart's picture as it was drawn before: from each date's isoformat text."""
    changes = RatingChange.objects.filter(player=player).order_by("played_at", "game_id")
    lines: dict[str, dict[str, list]] = {}
    for change in changes:
        line = lines.setdefault(change.game_type, {"x": [], "elo": [], "mu": [], "sigma": []})
        line["x"].append(change.played_at.isoformat())
        line["elo"].append(round(change.elo_after, 1))
        line["mu"].append(change.mu_after)
        line["sigma"].append(change.sigma_after)
    figure = profiles.rating_figure(
        {
            game_type: {
                "elo_x": line["x"],
                "elo": line["elo"],
                "skill_x": line["x"],
                "skill": display_ratings(line["mu"], line["sigma"]),
            }
            for game_type, line in lines.items()
        },
        changes.first().played_at,
        changes.last().played_at,
    )
    return preview(figure)


@pytest.mark.django_db
@pytest.mark.parametrize("spread_hours", [1, 24 * 5, 24 * 40])
def test_the_rating_chart_is_the_one_drawn_from_each_dates_text(spread_hours):
    for n, seed in enumerate((21, 22, 23, 24)):
        names = ["ann", "bob", "cyd"][: 2 + n % 2]
        verified_game(names, seed=seed, played_at=hours_ago(spread_hours * (4 - n) / 4))
    ann = Player.objects.get(handle="ann")

    chart = profiles.rating_history_figure(ann)

    picture = written_from_text(ann)
    assert picture is not None and '<svg class="chart-preview-picture"' in picture
    assert picture in chart


@pytest.mark.django_db
def test_a_games_link_is_the_one_reverse_writes():
    verified_game(["ann", "bob"], seed=21, played_at=hours_ago(2))
    verified_game(["ann", "cyd"], seed=22, played_at=hours_ago(1))

    for game in Game.objects.all():
        assert game.get_absolute_url() == reverse("games:log", args=[game.log_id])
