"""A verified group's lines are built together (issue 25: the hex lines of several games
counted in one pass, stats.services.lines.build_lines_of): for a group mixing game types
they must be the lines each game gives built alone, in the group's order."""

import pytest
from stats_support import verified_games

from games.models import Game
from stats.services.bands import group_bands
from stats.services.lines import build_lines, build_lines_of

pytestmark = pytest.mark.django_db


def test_a_mixed_groups_lines_are_each_games_lines_built_alone(django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    ids = [
        game.pk
        for game in (
            *verified_games(capture, "deep-vents", 4, 20, seed="together-4"),
            *verified_games(capture, "deep-sea-adventure", 3, 2, seed="together-dsa"),
            *verified_games(capture, "deep-vents", 2, 3, seed="together-2"),
            *verified_games(capture, "deep-dive", 4, 2, seed="together-dd"),
        )
    ]
    games = list(Game.objects.filter(pk__in=ids).prefetch_related("seats").order_by("?"))

    together = build_lines_of(games, group_bands(games))

    assert len(together) == len(games) > 16  # more games than are counted at once
    for game, lines in zip(games, together, strict=True):
        alone = build_lines(Game.objects.get(pk=game.pk))
        assert lines.seats == alone.seats
        assert lines.rounds == alone.rounds
        if alone.hexes is None:
            assert lines.hexes is None
        else:
            assert lines.hexes.rows() == alone.hexes.rows()
            assert lines.hexes.seats
