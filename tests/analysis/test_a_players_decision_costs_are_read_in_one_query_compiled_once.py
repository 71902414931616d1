"""A player's decision costs and accuracy (the player page's player_decision_costs tag) are read
in one query, compiled once (common.compiled): the tag built three ORM querysets a request, some
1.5 ms (issue 25). They still count what they counted: the newest done analysis of each game
(one of another engine version or retracted left out, a running one too), the player's own
seats' decisions (both of a seat a merge doubled), by game and phase."""

import datetime

import pytest
from django.db import connection
from django.db.models.query import QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from analysis.models import Analysis
from analysis.templatetags.analysis_tags import player_decision_costs
from engines.analysis import engine_version
from engines.review import move_accuracy, real_drop
from games.models import GameSeat, Source, Upload
from players.models import Player
from tests.games_support import stored_game

pytestmark = pytest.mark.django_db

DV, DSA = "deep-vents", "deep-sea-adventure"
HOUR = datetime.timedelta(hours=1)


def decision(seat: int, phase: str, cost: float) -> dict:
    return {"seat": seat, "phase": phase, "cost": cost, "cost_se": 0.01}


@pytest.fixture
def ann() -> dict:
    """Ann's analysed games, and what the page should make of them."""
    upload = Upload.objects.create(filename="analysed", source=Source.HUMAN, published=True)
    ann = Player.objects.create(handle="ann", display_name="Ann")
    bob = Player.objects.create(handle="bob", display_name="Bob")
    now = timezone.now().replace(microsecond=0)
    logs = {}

    def game(number: int, game_type: str, players: list[Player]) -> int:
        played = now - number * 24 * HOUR
        made = stored_game(upload, number, played, game_type=game_type, player_count=3)
        for seat, player in enumerate(players):
            GameSeat.objects.create(
                game=made, seat=seat, player=player, name=player.display_name,
                played_at=played, score=seat, rank=seat + 1, winner=seat == 0,
            )  # fmt: skip
        logs[number] = (made.log_id, played)
        return made.log_id

    def analysis(log: int, game_type: str, age: int, decisions: list[dict], **more) -> None:
        fields = {"engine_version": engine_version(game_type), "status": Analysis.Status.DONE}
        made = Analysis.objects.create(
            log_id=log, game_type=game_type, budget={}, budget_key=f"k{age}",
            decisions=decisions, **{**fields, **more},
        )  # fmt: skip
        Analysis.objects.filter(pk=made.pk).update(created=now - age * HOUR)

    one = game(1, DV, [ann, bob, bob])
    analysis(one, DV, 50, [decision(0, "bidding", 0.9), decision(1, "bidding", 0.5)])  # older
    analysis(one, DV, 5, [decision(0, "bidding", 0.2), decision(1, "drafting", 0.4)])
    twice = game(2, DV, [ann, bob, ann])  # a merge seated her twice
    analysis(twice, DV, 6, [decision(0, "drafting", 0.1), decision(2, "drafting", 0.0)])
    other = game(3, DSA, [bob, ann, bob])  # the newest of another engine version
    analysis(other, DSA, 7, [decision(1, "dive", 0.3), decision(1, "return", 0.0)])
    analysis(other, DSA, 1, [decision(1, "dive", 0.8)], engine_version="old")
    retracted = game(4, DV, [ann, bob, bob])
    analysis(retracted, DV, 2, [decision(0, "bidding", 0.7)], stale=True)
    running = game(5, DV, [ann, bob, bob])
    analysis(running, DV, 3, [decision(0, "bidding", 0.6)], status=Analysis.Status.RUNNING)
    bobs = game(6, DV, [bob, bob, bob])
    analysis(bobs, DV, 4, [decision(0, "bidding", 0.5)])

    def costs(*values: float) -> dict:
        return {
            "decisions": len(values),
            "average_cost": sum(values) / len(values),
            "costly_share": sum(v > 0 for v in values) / len(values),
        }

    def accuracy(*values: float) -> float:
        return sum(move_accuracy(real_drop(v, 0.01)) for v in values) / len(values)

    rows = [
        {"game": DSA, "phase": "dive", **costs(0.3)},
        {"game": DSA, "phase": "return", **costs(0.0)},
        {"game": DV, "phase": "bidding", **costs(0.2)},
        {"game": DV, "phase": "drafting", **costs(0.1, 0.0)},
    ]
    games = [  # by the date played, newest first; a doubled seat's games one each
        {"log": one, "game": DV, "played": logs[1][1], "accuracy": accuracy(0.2), "decisions": 1},
        {"log": twice, "game": DV, "played": logs[2][1], "accuracy": accuracy(0.1), "decisions": 1},
        {"log": twice, "game": DV, "played": logs[2][1], "accuracy": accuracy(0.0), "decisions": 1},
        {"log": other, "game": DSA, "played": logs[3][1], "accuracy": accuracy(0.3, 0.0),
         "decisions": 2},
    ]  # fmt: skip
    return {"player": ann, "rows": rows, "games": games}


def test_a_players_decision_costs_and_accuracy_are_read_in_one_query(ann):
    player_decision_costs(ann["player"])  # the query compiled

    with CaptureQueriesContext(connection) as queries:
        shown = player_decision_costs(ann["player"])

    assert len(queries) == 1
    assert shown["rows"] == ann["rows"]
    assert shown["games"] == ann["games"]
    assert 'id="accuracy-history"' in shown["accuracy_chart"]


def test_a_second_player_page_builds_no_queryset_for_the_decision_costs(ann, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("queries are compiled once on PostgreSQL only (common.compiled)")
    player_decision_costs(ann["player"])
    built = []
    original = QuerySet.__init__

    def counted(self, *args, **kwargs):
        original(self, *args, **kwargs)
        built.append(self.model)  # not the queryset: its repr (on failure) would run it

    monkeypatch.setattr(QuerySet, "__init__", counted)
    shown = player_decision_costs(ann["player"])

    assert built == []
    assert shown["rows"] == ann["rows"]
