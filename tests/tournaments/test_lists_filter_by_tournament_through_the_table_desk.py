"""The log and game lists' tournament filter asks the tournaments' table desk which logs are
its tables' results (games.services.table_desk): games reads no tournament table itself."""

import pytest
from django.test import Client
from games_support import human_log
from tables_support import club, dumps

from games.models import GameLog
from games.services.intake import submit_log
from games.services.verification import verify_log

pytestmark = pytest.mark.django_db


def listed(path: str) -> list[int]:
    results = Client().get(path).json()["results"]
    return sorted(row["id"] if "log" not in row else row["log"] for row in results)


def test_the_lists_filtered_by_a_tournament_show_only_its_tables_results():
    the_club = club()
    staff = the_club.client("staff")
    response = staff.post(
        f"/api/logs/?table={the_club.table.pk}",
        data=dumps(the_club.table_log()),
        content_type="application/json",
    )
    assert response.status_code == 201
    table_log = GameLog.objects.get(table=the_club.table).pk
    other_log = submit_log(dumps(human_log(seed=4)), user=None).pk
    for log_id in (table_log, other_log):
        verify_log(log_id)

    tournament = the_club.tournament.pk
    assert listed("/api/logs/") == sorted([table_log, other_log])
    assert listed(f"/api/logs/?tournament={tournament}") == [table_log]
    assert listed("/api/games/") == sorted([table_log, other_log])
    assert listed(f"/api/games/?tournament={tournament}") == [table_log]
    assert listed(f"/api/logs/?tournament={tournament + 1}") == []
