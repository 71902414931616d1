"""A group's games hand their seats to the game_verified receivers as built and stored,
without reading them back (issue 25, CPU per verified log): the same values a read gives."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from games_support import human_log, text

from games.models import Game, GameLog, GameSeat, Upload
from games.services import verification
from games.signals import game_verified

pytestmark = pytest.mark.django_db

FIELDS = ("pk", "game_id", "seat", "player_id", "name", "strategy", "score", "rank", "winner")


def test_the_receivers_see_each_games_stored_seats_without_a_query():
    upload = Upload.objects.create()
    for seed in (3, 4):
        raw = text(human_log(seed=seed))
        GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=json.loads(raw)["game"]
        )
    seen: dict[int, list[tuple]] = {}
    queries: list[int] = []

    def look(sender: type, game: Game, **kwargs) -> None:
        with CaptureQueriesContext(connection) as reading:
            seen[game.pk] = [
                (*(getattr(seat, f) for f in FIELDS), seat.summary) for seat in game.seats.all()
            ]
        queries.append(len(reading))

    game_verified.connect(look, dispatch_uid="test.look")
    try:
        verification.verify_logs(list(GameLog.objects.values_list("pk", flat=True)))
    finally:
        game_verified.disconnect(dispatch_uid="test.look")

    stored = {
        game.pk: [
            (*(getattr(seat, f) for f in FIELDS), seat.summary)
            for seat in GameSeat.objects.filter(game=game).order_by("seat")
        ]
        for game in Game.objects.all()
    }
    assert len(stored) == 2 and all(len(seats) == 3 for seats in stored.values())
    assert seen == stored
    assert queries == [0, 0]
