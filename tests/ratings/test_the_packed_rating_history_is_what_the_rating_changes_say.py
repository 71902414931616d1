"""Each player's packed rating history (ratings.history, what their page's chart reads) is
derived from their rating changes, and kept equal to them by the rater whatever it does:
games rated in order (a tail lengthened), a catch-up from an older game, a retraction, a
recompute, a players' merge; and a rebuild from the changes writes the very same rows
(issue 25). Chunks of three points here, so that a few games fill several."""

import datetime
import json
import random

import pytest
from django.db import transaction
from django.utils import timezone

from deepsea.celery import app as celery_app
from games.models import Game
from games.services.intake import submit_log
from games.services.verification import verify_log
from games.signals import game_retracted
from players.merge import merge_players
from players.models import Player
from ratings import history, services
from ratings.models import RatingChange, RatingHistory
from tests.ratings_support import DEEP_VENTS, deep_vents_log, hours_ago

NAMES = ["ann", "bob", "cyd", "dee"]
ROW_FIELDS = ("player_id", "game_type", "chunk", "last_at", "last_game", "points")


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    monkeypatch.setattr(history, "CHUNK", 3)


@pytest.fixture
def with_broker():
    """The rater runs after the verifying transaction (rate_until_caught_up), not in it."""
    celery_app.conf.task_always_eager = False


def verify(names: list[str], seed: int, played_at=None) -> Game:
    log = deep_vents_log(names, seed, played_at or timezone.now())
    return verify_log(submit_log(json.dumps(log), user=None).pk).game


def changes_as_points() -> dict[tuple[int, str], list[tuple]]:
    """Each player's and type's rating changes as the history's points, in rating order."""
    points: dict[tuple[int, str], list[tuple]] = {}
    for player, game_type, played_at, game_id, elo, mu, sigma in RatingChange.objects.order_by(
        "played_at", "game_id"
    ).values_list(
        "player_id", "game_type", "played_at", "game_id", "elo_after", "mu_after", "sigma_after"
    ):
        point = (history.microseconds(played_at), game_id, elo, mu, sigma)
        points.setdefault((player, game_type), []).append(point)
    return points


def history_as_stored() -> dict[tuple[int, str], list[tuple]]:
    """Each player's and type's history as their page reads it (history_of), its chunks
    checked: numbered from 0, full (chunk n starting at point n x CHUNK), each knowing its
    last point, and fewer than CHUNK points left after the last."""
    points: dict[tuple[int, str], list[tuple]] = {}
    for player in Player.objects.all():
        for game_type, words in history.history_of(player.pk).items():
            moments, games, elos, mus, sigmas = (column.tolist() for column in words)
            points[player.pk, game_type] = list(zip(moments, games, elos, mus, sigmas, strict=True))
    chunked: dict[tuple[int, str], int] = {}
    rows = RatingHistory.objects.order_by("player_id", "game_type", "chunk")
    for player, game_type, chunk, last_at, last_game, packed in rows.values_list(*ROW_FIELDS):
        chunk_points = history.points_of(history.unpack(bytes(packed)))
        start = chunk * history.CHUNK
        assert chunk == chunked.get((player, game_type), 0)
        assert chunk_points == points[player, game_type][start : start + history.CHUNK]
        assert (history.microseconds(last_at), last_game) == chunk_points[-1][:2]
        chunked[player, game_type] = chunk + 1
    for key, kept in points.items():
        assert len(kept) - chunked.get(key, 0) * history.CHUNK < history.CHUNK
    return points


def rows_stored() -> list[tuple]:
    rows = RatingHistory.objects.order_by("player_id", "game_type", "chunk")
    return [(*row[:-1], bytes(row[-1])) for row in rows.values_list(*ROW_FIELDS)]


def assert_history_is_the_changes() -> None:
    assert history_as_stored() == changes_as_points()
    rows = rows_stored()
    history.rebuild()
    assert rows_stored() == rows


def test_points_are_packed_and_unpacked_exactly():
    rng = random.Random(3)
    points, moment, game = [], 1_700_000_000_123_456, 10**12
    for _ in range(200):
        moment += rng.choice([0, 1, rng.randint(0, 10**11)])
        game += rng.randint(-(10**6), 10**6)
        points.append((moment, game, rng.uniform(-3e3, 3e3), rng.gauss(25, 5), rng.random()))
    for some in (points, points[:1], points[:128]):
        assert history.points_of(history.unpack(history.pack(some))) == some
    chunks = [history.pack(points[i : i + 64]) for i in range(0, len(points), 64)]
    assert history.points_of(history.unpack_all(chunks)) == points


@pytest.mark.django_db
def test_games_rated_in_order_lengthen_the_tails_and_fill_chunks(with_broker):
    for seed in range(9):  # rated by one, two, and four games at a time
        verify(NAMES[seed % 2 :], seed=seed, played_at=hours_ago(20 - seed))
        if seed in (0, 2, 4, 8):
            services.rate_until_caught_up(DEEP_VENTS)
            assert history_as_stored() == changes_as_points()

    assert max(RatingHistory.objects.values_list("chunk", flat=True)) >= 2
    assert_history_is_the_changes()


@pytest.mark.django_db
def test_games_pending_in_any_order_leave_the_history_of_the_recompute(with_broker):
    for seed, hours in enumerate([9, 8, 7, 6, 5.5, 5.2, 5.1]):
        verify(NAMES[: 2 + seed % 3], seed=seed, played_at=hours_ago(hours))
    services.rate_until_caught_up(DEEP_VENTS)
    for seed, hours in enumerate([5, 8.5, 4, 6.5, 9.5], start=7):  # older than rated ones
        verify(NAMES[seed % 2 :], seed=seed, played_at=hours_ago(hours))
        services.rate_until_caught_up(DEEP_VENTS)
    assert_history_is_the_changes()

    services.recompute(DEEP_VENTS)
    assert_history_is_the_changes()


@pytest.mark.django_db
def test_a_retracted_game_leaves_the_history_once_the_rater_has_run(with_broker):
    games = [verify(NAMES, seed=seed, played_at=hours_ago(9 - seed)) for seed in range(4)]
    games.append(verify(NAMES[:2], seed=4, played_at=hours_ago(4)))
    services.rate_until_caught_up(DEEP_VENTS)

    # ann and bob: 5 points (a full chunk and 2 more); cyd and dee: 4. First the last point
    # of everyone's chunk (the chunk goes), then the one after it
    for retracted in (games[2], games[3], games[4]):
        with transaction.atomic():
            game_retracted.send(sender=Game, game=retracted)
            retracted.log.delete()
        services.rate_until_caught_up(DEEP_VENTS)
        assert_history_is_the_changes()

    assert [len(points) for points in history_as_stored().values()] == [2, 2, 2, 2]


@pytest.mark.django_db
def test_a_retraction_without_a_broker_rates_again_in_its_transaction():
    games = [verify(NAMES, seed=seed, played_at=hours_ago(9 - seed)) for seed in range(5)]

    with transaction.atomic():
        game_retracted.send(sender=Game, game=games[2])
        games[2].log.delete()

    assert_history_is_the_changes()


@pytest.mark.django_db
def test_merged_players_have_one_history_of_all_their_games():
    for seed in range(4):
        verify(["ann", "bob", "cyd"], seed=seed, played_at=hours_ago(10 - seed))
        verify(["anne", "bob", "dee"], seed=seed + 10, played_at=hours_ago(9.5 - seed))
    ann, anne = Player.objects.get(handle="ann"), Player.objects.get(handle="anne")

    merge_players(ann, [anne])

    assert len(history_as_stored()[ann.pk, DEEP_VENTS]) == 8
    assert_history_is_the_changes()


def test_a_moment_is_its_microseconds_since_1970():
    moment = datetime.datetime(2026, 12, 6, 20, 1, 2, 345678, tzinfo=datetime.UTC)
    assert history.moment_of(history.microseconds(moment)) == moment
    assert history.microseconds(moment) / 1e6 == moment.timestamp()
