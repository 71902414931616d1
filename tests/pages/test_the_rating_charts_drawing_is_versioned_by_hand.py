"""The rating chart is kept in the cache under its history's digest and the version of its
drawing (pages.services.profiles.CHART_DRAWING), bumped by hand when what draws it changes:
a chart drawn from a fixed history (a long line pictured a slice at a time, and two short
ones of two game types) has the digest recorded here for the current version, so that a
change to the drawing made without a new version (charts cached before it would be served
on) fails here. A new drawing: bump CHART_DRAWING and record the digest this test prints."""

import hashlib

import pytest
from django.test import override_settings

from pages.services import profiles
from players.models import Player
from ratings import history
from tests.pages.test_the_rating_chart_reads_from_the_packed_history_the_points_it_read_from_the_changes import (  # noqa: E501
    rated,
)

# A drawn chart's digest (sha256 of the players' charts' HTML) by CHART_DRAWING.
DRAWN = {1: "276fadb9f05ca0e014136ce5b37209d25d3422086d0f36c5537fe4112bc50683"}
NONE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


@pytest.mark.django_db
def test_the_drawn_charts_digest_is_the_one_recorded_for_the_drawings_version():
    players = []
    for i, shape in enumerate([[("deep-vents", 700)], [("liars-dice", 9), ("deep-vents", 4)]]):
        player = Player.objects.create(handle=f"p{i}", display_name=f"P{i}", canonical_name=f"p{i}")
        for j, (game_type, count) in enumerate(shape):
            rated(player, game_type, count, seed=10 * i + j, first_game=100_000 * i + 10_000 * j)
        players.append(player)
    history.rebuild()

    with override_settings(CACHES=NONE):
        charts = [str(profiles.rating_history_figure(player)) for player in players]
    digest = hashlib.sha256("\n".join(charts).encode()).hexdigest()

    assert "data-figure-src" in charts[0] and "chart-preview" in charts[1]
    assert DRAWN.get(profiles.CHART_DRAWING) == digest, (
        f"the rating chart's drawing changed: bump CHART_DRAWING (pages.services.profiles) and "
        f"record {digest} for it in DRAWN"
    )
