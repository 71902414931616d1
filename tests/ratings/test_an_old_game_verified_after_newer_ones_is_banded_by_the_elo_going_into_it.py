"""A game verified after games played later than it (an old log uploaded late) is banded by
its players' Elo going into it, not by their ratings now, which count the later games: the
Elo after each one's last game before it, rated already or earlier in its group
(ratings.services.rated_after_first, running_elo). The rater's catch-up then records that
same Elo for it (RatingChange.elo_before) when no rated game it redoes lies between the
group's games."""

import pytest

from games.models import GameLog
from games.services import verification
from ratings.models import Rating, RatingChange
from tests.ratings_support import stored_logs

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cyd", "dee"]


def test_old_games_are_banded_by_the_elo_going_into_them_as_the_catch_up_records_it(
    elo_read_by_bands, settings
):
    settings.RATINGS_ELO_K = 400.0  # the later games move the ratings well away
    read = elo_read_by_bands
    rated = [(20, "ann bob"), (19, "ann bob cyd"), (18, "cyd dee"), (17, "ann bob")]
    rated.append((16, "cyd dee"))
    verification.verify_logs(stored_logs(rated))  # rated after their group
    read.clear()
    now = dict(Rating.objects.values_list("player__handle", "rating"))

    # Older than games each of them was rated for: cyd going into the second has played
    # the games at 19 and 18 hours ago, dee the one at 18 (neither moved by the first).
    verification.verify_logs(stored_logs([(18.5, "ann bob"), (17.5, "cyd dee")]))

    recorded = {
        (game_id, player_id): elo_before
        for game_id, player_id, elo_before in RatingChange.objects.filter(
            game__log__in=GameLog.objects.order_by("-pk")[:2]
        ).values_list("game_id", "player_id", "elo_before")
    }
    assert len(recorded) == 2 + 2
    assert read == recorded
    for handle in NAMES:  # each played a later game, at 17 or 16 hours ago
        old = RatingChange.objects.get(player__handle=handle, game_id__in=[g for g, _ in recorded])
        assert old.elo_before != now[handle]
