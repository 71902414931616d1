"""The player's rating chart reads their packed history (ratings.history) where it read their
rating changes (issue 25): its picture and its figure explored (ratings.json) are the very
ones of the readings before (tests/pages/chart_readings_before.py: PICTURE_SQL and
HISTORY_SQL on PostgreSQL, their twins elsewhere), ties and all: games at one moment,
repeated values, several game types, long lines cut in slices."""

import datetime
import json
import random

import pytest

from pages.services import profiles
from players.models import Player
from ratings import history
from ratings.models import Rating, RatingChange
from tests.pages import chart_readings_before as before

START = datetime.datetime(2025, 1, 1, 12, tzinfo=datetime.UTC)


def rated(player: Player, game_type: str, count: int, seed: int, first_game: int) -> None:
    """`count` rated games, some at one moment, values often repeated, game ids not in the
    order played."""
    rng = random.Random(seed)
    moment = START + datetime.timedelta(minutes=seed)
    ids = list(range(first_game, first_game + count))
    rng.shuffle(ids)
    changes = []
    for game_id in ids:
        if rng.random() > 0.15:
            moment += datetime.timedelta(hours=rng.randint(1, 30), microseconds=rng.randint(0, 9))
        changes.append(
            RatingChange(
                game_id=game_id,
                player=player,
                played_at=moment,
                elo_before=1500,
                elo_after=rng.choice([1500.05, 1490.25, 1512.75]) + rng.randint(-3, 3) / 3,
                mu_after=25 + rng.randint(-20, 20) / 3,
                sigma_after=rng.choice([8.0, 6.5, 5.0, 6.1]),
                game_type=game_type,
                won=False,
            )
        )
    RatingChange.objects.bulk_create(changes)
    Rating.objects.create(player=player, game_type=game_type)  # as the rater writes it


@pytest.fixture
def players(db) -> list[Player]:
    made = []
    shapes = [
        [("deep-vents", 700)],
        [("deep-vents", 40), ("liars-dice", 500)],
        [("liars-dice", 3), ("deep-vents", 3)],
        [("deep-vents", 1)],
    ]
    for i, shape in enumerate(shapes):
        player = Player.objects.create(handle=f"p{i}", display_name=f"P{i}", canonical_name=f"p{i}")
        for j, (game_type, count) in enumerate(shape):
            rated(player, game_type, count, seed=10 * i + j, first_game=100_000 * i + 10_000 * j)
        made.append(player)
    history.rebuild()
    return made


@pytest.mark.parametrize("columns", [174, 7, 1])
@pytest.mark.django_db
def test_the_picture_reads_the_points_it_read_from_the_changes(players, monkeypatch, columns):
    monkeypatch.setattr(profiles, "PREVIEW_COLUMNS", columns)
    for player in players:
        assert before.picture_types_listed(profiles.picture_types(player)) == before.picture_rows(
            player
        )


@pytest.mark.django_db
def test_the_figure_explored_reads_the_columns_it_read_from_the_changes(
    players, client, monkeypatch
):
    served = {}
    for player in players:
        assert profiles.history_columns(player) == before.history_rows(player)
        served[player.pk] = client.get(f"/players/{player.handle}/ratings.json").json()

    monkeypatch.setattr(profiles, "history_columns", before.history_rows)
    for player in players:
        figure = json.loads(json.dumps(profiles.rating_history_data(player)))
        assert served[player.pk] == figure


@pytest.mark.django_db
def test_a_player_without_rated_games_has_no_chart(db):
    player = Player.objects.create(handle="new", display_name="New", canonical_name="new")
    assert (
        before.picture_types_listed(profiles.picture_types(player))
        == before.picture_rows(player)
        == []
    )
    assert profiles.rating_history_data(player) is None
