"""Eliminations at tournament tables (DV-8) are stored once, when the table's game is
verified (tournaments.models.Elimination), and the tournament page shows them from there:
the same seats and turns as the game's facts, without reading the facts per table."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from tables_support import club, dumps

import engines
from games.models import Game, GameLog
from games.services.verification import verify_log
from tournaments.models import Elimination
from tournaments.services.results import attach_log

pytestmark = pytest.mark.django_db


def eliminations_in(log: dict) -> dict[int, int]:
    facts = engines.replay(log, collect_facts=True).facts
    return {f["seat"]: f["turn"] for f in facts if f["type"] == "eliminated"}


def test_a_verified_table_game_stores_its_eliminations_and_the_page_shows_them(
    django_capture_on_commit_callbacks,
):
    the_club = club()
    log = next(
        log for log in map(the_club.table_log, range(300)) if eliminations_in(log)
    )  # a seed where someone is eliminated
    expected = eliminations_in(log)
    with django_capture_on_commit_callbacks(execute=True):
        stored = attach_log(the_club.table, dumps(log), user=the_club.users["staff"])
    if GameLog.objects.get(pk=stored.pk).status != GameLog.Status.VERIFIED:
        verify_log(stored.pk)
    game = Game.objects.get(log_id=stored.pk)

    rows = {e.seat: e.turn for e in Elimination.objects.filter(game=game)}
    assert rows == expected
    names = {s.seat: s.player.display_name for s in game.seats.select_related("player")}
    with CaptureQueriesContext(connection) as queries:
        page = the_club.client("anonymous").get(the_club.tournament.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    for seat, turn in expected.items():
        assert f"eliminated (game turn {turn})" in html
        assert names[seat] in html
    assert not any('"facts"' in q["sql"] for q in queries.captured_queries)


def test_a_casual_game_stores_no_eliminations():
    from tests.ratings_support import verified_game

    for seed in range(200):
        game = verified_game(["ann", "bob", "cyd", "dee"], seed)
        if any(f["type"] == "eliminated" for f in game.facts):
            break
        game.log.delete()
    else:
        pytest.skip("no simulated game with an elimination in 200 seeds")
    assert game.source != "tournament"
    assert not Elimination.objects.exists()


def test_a_retracted_game_takes_its_eliminations_with_it(django_capture_on_commit_callbacks):
    the_club = club()
    log = next(log for log in map(the_club.table_log, range(300)) if eliminations_in(log))
    with django_capture_on_commit_callbacks(execute=True):
        stored = attach_log(the_club.table, dumps(log), user=the_club.users["staff"])
    if GameLog.objects.get(pk=stored.pk).status != GameLog.Status.VERIFIED:
        verify_log(stored.pk)
    assert Elimination.objects.exists()
    Game.objects.filter(log_id=stored.pk).delete()
    assert not Elimination.objects.exists()
