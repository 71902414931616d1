"""Merging duplicate players in the admin moves their games and rebuilds ratings."""

import datetime
import threading
import time

import pytest
from django.db import connection, transaction

from games.models import Game, GameSeat
from players.merge import merge_players
from players.models import Player
from players.services import MERGE_LOCK
from ratings.models import Rating
from tests.ratings_support import hours_ago, verified_game
from tests.stats_support import seat_lines_of
from tournaments.models import Registration, Tournament


@pytest.fixture
def duplicates(db):
    verified_game(["ann", "bob"], seed=31, played_at=hours_ago(3))
    verified_game(["Ann S", "bob"], seed=32, played_at=hours_ago(2))  # same person, other name
    return Player.objects.get(handle="ann"), Player.objects.get(handle="ann-s")


def test_merge_action_moves_games_to_the_oldest_player(admin_client, duplicates):
    ann, ann_s = duplicates

    response = admin_client.post(
        "/admin/players/player/",
        {"action": "merge_duplicates", "_selected_action": [ann.pk, ann_s.pk]},
        follow=True,
    )

    assert b"Merged 1 player(s)" in response.content
    assert not Player.objects.filter(pk=ann_s.pk).exists()
    assert GameSeat.objects.filter(player=ann).count() == 2
    assert Rating.objects.get(player=ann).games == 2


def test_merge_refuses_players_entered_in_the_same_tournament(admin_client, duplicates):
    ann, ann_s = duplicates
    cup = Tournament.objects.create(name="Cup", slug="cup", starts_on=datetime.date(2026, 1, 1))
    Registration.objects.create(tournament=cup, player=ann)
    Registration.objects.create(tournament=cup, player=ann_s)

    response = admin_client.post(
        "/admin/players/player/",
        {"action": "merge_duplicates", "_selected_action": [ann.pk, ann_s.pk]},
        follow=True,
    )

    assert b"both entered in Cup" in response.content
    assert Player.objects.filter(pk=ann_s.pk).exists()


def test_player_admin_searches_by_handle_and_name(admin_client, duplicates):
    page = admin_client.get("/admin/players/player/?q=ann-s").content.decode()

    assert "@ann-s" in page
    assert "(@bob)" not in page


@pytest.mark.django_db(transaction=True)
def test_a_merge_waits_for_a_game_being_stored_under_a_duplicate_and_moves_it_too(
    postgresql, duplicates
):
    # Without the wait, the merge moved the seats it saw, the game then committed under the
    # deleted duplicate's id: its seat refused at commit, or its packed seat lines naming
    # nobody (stats.services.aggregate.move_merged_players ran before it).
    ann, ann_s = duplicates
    stored, merged, errors = threading.Event(), threading.Event(), []

    def store_a_game_of_the_duplicate() -> None:
        try:
            with transaction.atomic():
                verified_game(["Ann S", "bob"], seed=33, played_at=hours_ago(1))
                stored.set()
                errors.extend(merge_waiting_for_a_lock(within=30))
        except Exception as error:
            errors.append(error)
        finally:
            stored.set()
            connection.close()  # this thread's own

    def merge() -> None:
        try:
            stored.wait(timeout=30)
            merge_players(ann, [ann_s])
        except Exception as error:
            errors.append(error)
        finally:
            merged.set()
            connection.close()

    threads = [
        threading.Thread(target=store_a_game_of_the_duplicate),
        threading.Thread(target=merge),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert not Player.objects.filter(pk=ann_s.pk).exists()
    assert GameSeat.objects.filter(player=ann).count() == 3
    for game in Game.objects.all():
        assert ann_s.pk not in {line.player for line in seat_lines_of(game)}


def merge_waiting_for_a_lock(within: float) -> list[str]:
    """Waits until another connection waits for the merge lock (the merge, for the game
    being stored); what went wrong if it never does."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND objid = %s AND database ="
                " (SELECT oid FROM pg_database WHERE datname = current_database())",
                [MERGE_LOCK],
            )
            if cursor.fetchone()[0]:
                return []
        time.sleep(0.05)
    return [f"the merge did not wait for the game being stored ({within} s)"]
