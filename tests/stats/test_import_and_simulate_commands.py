"""`import_logs` queues files as uploads; `simulate` plays bot games through the same path."""

import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from games_support import human_log, jsonl, text

from games.models import Game, GameLog, Upload
from stats.models import SimulationBatch
from stats.services.simulation import progress

pytestmark = pytest.mark.django_db


def test_import_logs_queues_a_json_file_and_a_jsonl_batch(
    tmp_path, django_capture_on_commit_callbacks
):
    single = tmp_path / "one.json"
    single.write_text(text(human_log(seed=130)))
    batch = tmp_path / "many.jsonl"
    batch.write_bytes(jsonl(human_log(seed=131), human_log(seed=132)))
    out = StringIO()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_logs", str(single), str(batch), stdout=out)

    assert GameLog.objects.filter(status="verified").count() == 3
    assert "one.json: queued as log" in out.getvalue()
    assert "2 logs queued" in out.getvalue()


def test_import_logs_reports_bad_lines_and_fails(tmp_path):
    batch = tmp_path / "bad.jsonl"
    batch.write_bytes(jsonl(human_log(seed=133), "not json"))
    err = StringIO()

    with pytest.raises(CommandError, match="1 file"):
        call_command("import_logs", str(batch), stdout=StringIO(), stderr=err)

    assert "bad.jsonl:2: invalid JSON" in err.getvalue()
    assert GameLog.objects.count() == 1


@pytest.mark.parametrize("game", ["deep-dive", "deep-sea-adventure", "deep-vents"])
def test_simulate_plays_bot_games_that_are_verified_as_simulated(
    game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("simulate", game, games=2, players=3, seed="t", stdout=StringIO())

    games = Game.objects.filter(game_type=game)
    assert games.count() == 2
    assert {g.source for g in games} == {"simulated"}
    assert all(seat.player is None for g in games for seat in g.seats.all())
    assert Upload.objects.get().source == "simulated"


def test_simulate_again_with_the_same_seed_stores_nothing_new(django_capture_on_commit_callbacks):
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            call_command("simulate", "deep-dive", games=2, seed="same", stdout=StringIO())

    assert GameLog.objects.count() == 2
    second = SimulationBatch.objects.order_by("pk").last()
    assert progress(second)["duplicates"] == 2


def test_simulate_runs_as_a_chunked_batch_like_the_lab(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("simulate", "deep-dive", games=5, chunk_size=2, seed="c", stdout=StringIO())

    batch = SimulationBatch.objects.get()
    assert batch.uploads.count() == 3
    assert progress(batch)["verified"] == 5


def test_simulate_names_an_unknown_strategy():
    with pytest.raises(CommandError, match="unknown strategy 'psychic'"):
        call_command("simulate", "deep-dive", players=2, strategies=["psychic", "random"])


def test_a_batch_is_named_by_its_game_source_and_launch_never_by_its_number(
    client, django_user_model, django_capture_on_commit_callbacks
):
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("simulate", "deep-dive", games=2, seed="n", stdout=out)
    batch = SimulationBatch.objects.get()
    SimulationBatch.objects.filter(pk=batch.pk).update(
        created=datetime.datetime(2026, 12, 6, 19, 30, tzinfo=datetime.UTC)
    )
    batch.refresh_from_db()
    client.force_login(django_user_model.objects.create_user("lab", is_staff=True))

    page = client.get(f"/stats/lab/{batch.pk}/").content.decode()
    lab = client.get("/stats/lab/").content.decode()

    name = "Deep Dive bot games from the command line, 6 Dec 2026, 19:30"  # UTC
    assert batch.name == name
    assert f"<h1>{name}</h1>" in page
    assert f'<a href="/stats/lab/{batch.pk}/">{name}</a>: 2 games' in lab
    assert f"batch {batch.pk}" not in (page + lab).lower()
    # The command names it too, its page's address beside: where to follow it.
    assert "bot games from the command line, " in out.getvalue()
    assert f"(/stats/lab/{batch.pk}/): 2 games" in out.getvalue()
    assert batch.uploads.get().filename.startswith("lab batch of ")
