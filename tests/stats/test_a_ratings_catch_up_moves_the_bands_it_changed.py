"""A ratings catch-up (a game verified older than games already rated, or a retraction)
redoes the later games' ratings, and their players' Elo going into them moves: the bands
counted for them move with it (stats.services.rebanding, told by the rater:
ratings.signals.elo_going_in_moved), so the statistics are at once what a rebuild from the
facts reads from the recorded Elo; only games whose band moved are written again. So are
the bands of an old group's games when a rated game lies between them
(ratings.services.running_elo could not band them exactly)."""

import psycopg
import pytest
from django.db import connection, transaction

from games.models import Game, GameLog
from games.services import verification
from games.services.removal import retract_game
from players.services import MERGE_LOCK
from ratings.models import RatingChange
from stats.services.aggregate import rebuild_all
from stats.services.rebanding import reband
from tests.ratings_support import stored_logs
from tests.stats.test_stats_aggregates import cube_snapshot
from tests.stats_support import seat_lines_of

pytestmark = pytest.mark.django_db

RATED = [(20, "ann bob"), (19, "ann bob cyd"), (18, "cyd dee"), (17, "ann bob"), (16, "cyd dee")]


@pytest.fixture(autouse=True)
def large_steps(settings):
    settings.RATINGS_ELO_K = 400.0  # every game moves its players across bands


def bands() -> dict[int, list[str]]:
    return {game.pk: [seat.band for seat in seat_lines_of(game)] for game in Game.objects.all()}


def counted_as_a_rebuild_counts() -> dict[int, list[str]]:
    """The bands counted, having checked that the cubes equal a rebuild's from the facts."""
    incremental, counted = cube_snapshot(), bands()
    rebuild_all(from_facts=True)
    assert bands() == counted
    assert cube_snapshot() == incremental
    return counted


def test_an_old_game_moves_the_bands_of_the_later_games_as_a_rebuild_reads_them():
    verification.verify_logs(stored_logs(RATED))
    before = bands()

    verification.verify_logs(stored_logs([(21, "ann bob cyd dee")]))

    after = counted_as_a_rebuild_counts()
    assert any(after[game] != banded for game, banded in before.items())


def test_a_retracted_game_moves_the_bands_of_the_later_games_as_a_rebuild_reads_them():
    logs = stored_logs([(21, "ann bob cyd dee"), *RATED])
    verification.verify_logs(logs)
    before = bands()

    with transaction.atomic():
        retract_game(GameLog.objects.get(pk=logs[0]))

    after = counted_as_a_rebuild_counts()
    assert any(after[game] != before[game] for game in after)


def test_an_old_groups_games_with_a_rated_game_between_them_are_banded_as_a_rebuild_reads():
    verification.verify_logs(stored_logs(RATED))

    between = [(20.5, "ann bob"), (19.5, "ann cyd"), (18.5, "bob dee"), (17.5, "ann dee")]
    verification.verify_logs(stored_logs([*between, (16.5, "bob cyd")]))

    counted_as_a_rebuild_counts()


def test_only_the_games_whose_band_moved_are_banded_again(django_assert_num_queries):
    verification.verify_logs(stored_logs(RATED))
    change = RatingChange.objects.filter(game__seats__name="ann").latest("played_at")
    key, elo = (change.game_id, change.player_id), change.elo_before
    nudged = elo + (0.01 if elo % 200 < 100 else -0.01)  # the same band (bands.BANDS)

    with django_assert_num_queries(0):
        assert reband("deep-vents", {key: (elo, nudged)}, {}) == 0
    locking = connection.vendor == "postgresql"  # SQLite writes one transaction at a time
    with django_assert_num_queries(1 + locking):  # the merge lock, its lines read; no write
        assert reband("deep-vents", {}, {key: elo}) == 0


@pytest.mark.django_db(transaction=True)  # the merge's lock taken after the games commit
def test_bands_are_left_to_a_rebuild_while_a_players_merge_is_under_way():
    """A merge holds the lock exclusively, then waits for the ratings' ledger (its
    recompute), which the catch-up holds: the catch-up does not wait for it."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time: no merge is under way")
    verification.verify_logs(stored_logs(RATED))
    change = RatingChange.objects.filter(game__seats__name="ann").latest("played_at")
    key = (change.game_id, change.player_id)
    before = bands()

    with psycopg.connect(**connection.get_connection_params()) as merging:
        merging.execute("SELECT pg_advisory_xact_lock(%s)", [MERGE_LOCK])
        with transaction.atomic():
            assert reband("deep-vents", {key: (None, 1900.0)}, {}) == 0

    assert bands() == before
