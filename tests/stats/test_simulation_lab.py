"""The simulation lab: staff launch bot batches that are verified and counted as simulated."""

import pytest
from django.db.models import Sum
from django.urls import reverse

from engines.core.errors import UnsupportedRulesetError
from games.models import Game
from stats.models import SimulationBatch, StrategyCube
from stats.services.simulation import chunks, create_batch, plan_tables

pytestmark = pytest.mark.django_db


def test_the_lab_is_for_staff_only(client):
    page = client.get(reverse("stats:lab"))
    assert page.status_code == 302
    assert "login" in page["Location"]


def test_launching_a_batch_plays_chunks_and_counts_them_as_simulated(
    staff_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(
            reverse("stats:lab"),
            {
                "game": "deep-dive",
                "ruleset": "standard",
                "players": 3,
                "strategies": "random, risk-aware, surface-after-2",
                "games": 5,
                "seed": "lab-test",
            },
        )
    batch = SimulationBatch.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("stats:batch", args=[batch.pk])
    progress = staff_client.get(reverse("stats:batch-progress", args=[batch.pk])).json()
    assert progress["verified"] == 5
    assert progress["percent"] == 100.0
    assert progress["status"] == "done"
    assert batch.uploads.count() == 1
    assert set(Game.objects.values_list("source", flat=True)) == {"simulated"}
    seats = StrategyCube.objects.filter(source="simulated").aggregate(n=Sum("n"))["n"]
    assert seats == 15
    page = staff_client.get(reverse("stats:batch", args=[batch.pk]))
    assert b'id="batch-progress"' in page.content


def test_two_batches_without_a_seed_play_different_games(
    staff_client, django_capture_on_commit_callbacks
):
    form = {"game": "deep-dive", "ruleset": "standard", "players": 2, "games": 3}
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            staff_client.post(reverse("stats:lab"), form)

    first, second = SimulationBatch.objects.order_by("pk")
    assert first.seed != second.seed
    assert Game.objects.count() == 6


def test_a_batch_is_split_into_chunks_covering_every_game():
    batch = SimulationBatch(games=450, chunk_size=200)
    assert chunks(batch) == [(0, 200), (200, 200), (400, 50)]


def test_every_combination_of_strategies_is_planned_once():
    tables = plan_tables("deep-dive", 3, None, all_combinations=True)
    # 4 strategies, 3 seats: combinations with repetition = C(4 + 3 - 1, 3) = 20.
    assert len(tables) == 20
    assert len({tuple(t) for t in tables}) == 20


def test_an_unknown_strategy_is_refused_by_name():
    with pytest.raises(UnsupportedRulesetError, match="'kraken'"):
        create_batch(
            game_id="deep-dive",
            ruleset="standard",
            players=2,
            games=1,
            strategies=["random", "kraken"],
        )


def test_a_bad_batch_is_shown_on_the_form(staff_client):
    page = staff_client.post(
        reverse("stats:lab"),
        {"game": "deep-vents", "ruleset": "nope", "players": 3, "games": 1, "seed": "x"},
    )
    assert page.status_code == 200
    assert "unknown ruleset" in page.content.decode()
    assert not SimulationBatch.objects.exists()


def launch_small_batch(staff_client, django_capture_on_commit_callbacks) -> SimulationBatch:
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(
            reverse("stats:lab"),
            {"game": "deep-dive", "ruleset": "standard", "players": 2, "games": 3, "seed": "l"},
        )
    return SimulationBatch.objects.get()


def test_a_finished_batch_is_listed_as_done_without_anyone_opening_its_page(
    staff_client, django_capture_on_commit_callbacks
):
    batch = launch_small_batch(staff_client, django_capture_on_commit_callbacks)
    assert batch.status == SimulationBatch.Status.RUNNING  # nobody has looked at it yet
    html = staff_client.get(reverse("stats:lab")).content.decode()
    assert "(running)" not in html
    assert f"{batch.name}</a>: 3 games (done), 3 of 3 finished" in html


def test_the_progress_box_polls_while_running_and_stops_once_done(
    staff_client, django_capture_on_commit_callbacks
):
    batch = launch_small_batch(staff_client, django_capture_on_commit_callbacks)
    box_url = reverse("stats:batch-progress-box", args=[batch.pk])
    SimulationBatch.objects.filter(pk=batch.pk).update(games=4)  # one game still to come
    running = staff_client.get(box_url).content.decode()
    assert f'hx-get="{box_url}"' in running and 'hx-trigger="every 1s"' in running
    SimulationBatch.objects.filter(pk=batch.pk).update(games=3)
    done = staff_client.get(box_url).content.decode()
    assert "hx-trigger" not in done
    assert "3 of 3 finished" in done
