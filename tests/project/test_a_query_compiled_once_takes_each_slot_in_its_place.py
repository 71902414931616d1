"""common.compiled: a query compiled once with a slot for each value that differs between
requests (issue 25). A slot the compiled query does not send is refused when it is compiled,
not answered with another request's rows; a slot of a small integer column is sent as the
ORM sends its value (psycopg's Int2); rows come as values_list's tuples or values' dicts."""

import datetime

import pytest
from psycopg.types.numeric import Int2

from common import compiled
from stats.models import StrategyCube, StrategyCubeLive

pytestmark = pytest.mark.django_db


def sizes(game: str, players: int):
    return (
        StrategyCubeLive.objects.filter(game_type=game, player_count=players)
        .values("player_count")
        .order_by()
    )


def test_a_slot_the_query_does_not_send_is_refused(postgresql):
    with pytest.raises(ValueError, match="did not reach"):
        compiled.compile_once(
            "a slot not sent",
            StrategyCubeLive,
            lambda game: sizes("deep-vents", 3),
            {"game": "slot:g"},
        )


def test_a_small_integer_is_sent_as_the_orm_sends_it(postgresql):
    found = compiled.compile_once(
        "sizes", StrategyCubeLive, sizes, {"game": "slot:g", "players": 32_123}
    )
    kinds = {name: kind for _, name, kind in found.slots}
    assert kinds == {"game": None, "players": Int2}
    assert found.names == ("player_count",)
    StrategyCube.objects.create(
        game_type="deep-vents",
        source="simulated",
        player_count=3,
        ruleset="standard",
        month=datetime.date(2026, 1, 1),
        band="bot",
        strategy="greedy",
        n=2,
    )
    assert found.rows({"game": "deep-vents", "players": 3}) == [(3,)]
    assert found.dicts({"game": "deep-vents", "players": 3}) == [{"player_count": 3}]
    assert found.rows({"game": "deep-vents", "players": 4}) == []
    assert found.rows({"game": "deep-dive", "players": 3}) == []
