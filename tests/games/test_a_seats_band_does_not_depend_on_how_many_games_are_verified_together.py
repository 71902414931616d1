"""How many logs a verified group holds (verification.GROUP_SIZE, and intake.VERIFY_CHUNK a
task) is a matter of cost, never of what pages show: the same batch verified a log at a
time, 50 or 200 together stores the same players (ids, handles, names), ratings and
statistics. A seat's rating band is its player's Elo going into the game as though games
were rated one by one in the rater's order (played time, then id), even when the rater
has not yet taken in the group's earlier games; new players are created in the order
their names are first met (issue 25)."""

import json
import random
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils import timezone

from engines.core.simulate import simulate_game
from engines.registry import get_game
from games.models import GameSeat
from games.services import intake, verification
from players.models import Player
from stats.models import SeatLines, StrategyCube
from stats.services import seat_packing
from stats.services.aggregate import fold_deltas
from stats.services.bands import UNRATED

pytestmark = pytest.mark.django_db

LOGS = 60
# Newcomers out of alphabetical order, among them two whose handles clash ("ann-lee"
# twice: the first met keeps it).
NAMES = ["Ida", "ann-lee", "Cyd", "Jo", "Hal", "Ann Lee", "Bo", "Gus", "Eve", "Fay", "Dee"]
STRATEGIES = ("grower", "attacker", "turtle", "random")
FIXED = timezone.now().replace(microsecond=0) - timedelta(days=20)


def batch() -> list[bytes]:
    """LOGS Deep Vents games of 2 to 4 of NAMES, in the order they were played (two of them
    at one moment: the rater orders those by id), newcomers joining as they go."""
    game = get_game("deep-vents")
    rng = random.Random(25)
    logs = []
    for number in range(LOGS):
        pool = NAMES[: 4 + number // 6]
        names = rng.sample(pool, rng.choice((2, 3, 4, 4)))
        strategies = [rng.choice(STRATEGIES) for _ in names]
        log = simulate_game(game, game.ruleset(), strategies, rng, names=names)
        played = FIXED + timedelta(hours=number - (number == 31))
        log["meta"] = {"played_at": played.isoformat()}
        logs.append(json.dumps(log).encode())
    return logs


def kept_fields(model: type[models.Model]) -> list[str]:
    """The columns that say what is stored: not a row's own id (cube rows are inserted as
    folds meet them, a live view numbers its rows) but a player's, nor the moment a row
    was written."""
    return [
        field.attname
        for field in model._meta.concrete_fields
        if not (field.primary_key and not field.is_relation and model is not Player)
        and not getattr(field, "auto_now", False)
        and not getattr(field, "auto_now_add", False)
        and field.name != "created"
    ]


def rounded(value):
    """A float to nine places: the cubes' sums of thirds come out a last bit apart as their
    deltas are folded in other orders (more delta rows, one a game, for groups of one),
    which no page shows; anything else as it is."""
    return round(value, 9) if isinstance(value, float) else value


def stored() -> dict[str, list]:
    """Every player, every seat's player, every row of the ratings and the statistics (the
    seat lines unpacked, so that a difference reads as one)."""
    tables = [Player, GameSeat, *apps.get_app_config("ratings").get_models()]
    tables += [*apps.get_app_config("stats").get_models()]
    rows = {
        model.__name__: sorted(
            (tuple(map(rounded, row)) for row in model.objects.values_list(*kept_fields(model))),
            key=repr,
        )
        for model in tables
    }
    rows["SeatLines"] = [
        line
        for game_id, month, packed in SeatLines.objects.order_by("game_id").values_list(
            "game_id", "month", "packed"
        )
        for line in seat_packing.unpack(game_id, month, bytes(packed))[0]
    ]
    return rows


def verified_together(size: int, logs: list[bytes], monkeypatch, capture) -> dict[str, list]:
    """What verifying `logs` as one batch in groups (and tasks) of `size` stores. Undone
    after, and every id sequence set back, so that each size starts alike."""
    monkeypatch.setattr(verification, "GROUP_SIZE", size)
    monkeypatch.setattr(intake, "VERIFY_CHUNK", size)
    monkeypatch.setattr(verification, "NAMES_WITH_PLAYERS", set())
    with transaction.atomic():
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), apps.get_models()):
                cursor.execute(statement)
        with capture(execute=True):
            intake.submit_batch(iter(logs), user=None)
        while fold_deltas():
            pass
        result = stored()
        transaction.set_rollback(True)
    return result


def test_a_batch_verified_a_log_at_a_time_50_or_200_together_stores_the_same(
    monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.RATINGS_ELO_K = 400.0  # ratings that cross bands within a few games
    logs = batch()

    alone = verified_together(1, logs, monkeypatch, django_capture_on_commit_callbacks)
    fifty = verified_together(50, logs, monkeypatch, django_capture_on_commit_callbacks)
    all_at_once = verified_together(200, logs, monkeypatch, django_capture_on_commit_callbacks)

    assert len(alone["RatingChange"]) > 3 * LOGS - 10
    assert len(alone["Player"]) == len(NAMES)
    assert len({row[1] for row in alone["Player"]}) == len(NAMES)  # handles, all different
    band = kept_fields(StrategyCube).index("band")
    assert {row[band] for row in alone["StrategyCube"]} >= {UNRATED, "<1400", "1600-1799"}
    for table in alone:
        assert fifty[table] == alone[table], table
        assert all_at_once[table] == alone[table], table
