"""Verification spares Python's garbage collector (issue 25, CPU per verified log): it rests
while a group of logs is replayed and stored, a stored game lets go of its facts (its
reference cycles would keep them for the collector to walk), and a worker freezes what it
loaded at start out of the collector's walks."""

import gc
import json

import pytest
from games_support import human_log, text

from deepsea.celery import YOUNG_OBJECTS, tune_garbage_collector
from games.models import Game, GameLog, Upload
from games.services import verification

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued() -> list[int]:
    """Two logs stored as intake stores them (queued), no message sent."""
    upload = Upload.objects.create()
    raws = [text(human_log(seed=seed)) for seed in (1, 2)]
    return [
        GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=json.loads(raw)["game"]
        ).pk
        for raw in raws
    ]


def test_the_collector_rests_while_a_group_is_stored_and_works_again_after(queued, monkeypatch):
    record_group = verification.record_group
    collecting_while_storing = []

    def record_and_look(outcomes):
        collecting_while_storing.append(gc.isenabled())
        record_group(outcomes)

    monkeypatch.setattr(verification, "record_group", record_and_look)
    verification.verify_logs(queued)

    assert collecting_while_storing == [False]
    assert gc.isenabled()
    assert GameLog.objects.filter(status=GameLog.Status.VERIFIED).count() == 2


def test_a_stored_game_lets_go_of_its_facts_and_replays_them_when_asked(queued, monkeypatch):
    store_games = verification.store_games
    stored: list[Game] = []

    def store_and_keep(*args):
        stored.extend(store_games(*args))
        return stored

    monkeypatch.setattr(verification, "store_games", store_and_keep)
    verification.verify_logs(queued)

    assert len(stored) == 2
    assert all(game._facts is None for game in stored)
    assert stored[0].facts and all("type" in fact for fact in stored[0].facts)


def test_a_worker_freezes_what_it_loaded_and_collects_young_objects_less_often():
    threshold = gc.get_threshold()
    try:
        tune_garbage_collector()

        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_OBJECTS, *threshold[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
