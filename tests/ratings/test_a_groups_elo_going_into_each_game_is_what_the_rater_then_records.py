"""The statistics band a verified group's seats by their Elo going into each game before the
rater has taken the group in (it rates after the group commits): that Elo is the one the
rater then records for the game (RatingChange.elo_before), the group's earlier games in
played order counted, whatever order the logs came in (ratings.services.running_elo,
issue 25)."""

import json

import pytest

from games.models import GameLog, Upload
from games.services import verification
from ratings.models import RatingChange
from tests.ratings_support import DEEP_VENTS, deep_vents_log, hours_ago

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cyd", "dee"]


def stored_logs(hours: list[float]) -> list[int]:
    """Logs of games between 2 to 4 of NAMES played `hours` ago, stored unverified."""
    upload = Upload.objects.create()
    ids = []
    for seed, ago in enumerate(hours):
        raw = json.dumps(deep_vents_log(NAMES[: 2 + seed % 3], seed, hours_ago(ago)))
        log = GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=DEEP_VENTS
        )
        ids.append(log.pk)
    return ids


def test_the_elo_a_group_is_banded_by_is_the_elo_the_rater_records(elo_read_by_bands):
    read = elo_read_by_bands
    verification.verify_logs(stored_logs([20, 19, 18, 17]))  # a first group, rated after it
    read.clear()

    # Out of played order, in one group: each game after the rated ones.
    verification.verify_logs(stored_logs([5, 7, 6, 3]))

    recorded = {
        (game_id, player_id): elo_before
        for game_id, player_id, elo_before in RatingChange.objects.filter(
            game__played_at__gt=hours_ago(8)
        ).values_list("game_id", "player_id", "elo_before")
    }
    assert len(recorded) == 2 + 3 + 4 + 2
    assert read == recorded
