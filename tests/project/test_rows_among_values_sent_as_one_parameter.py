"""common.database.any_of: `field__in=values` with the values as one parameter (issue 25, the
SQL a verified group renders), on whichever database the run uses: the same rows as `__in`,
whatever the values hold, none for no values, and one parameter however many values."""

import pytest
from django.db import connection

from common.database import any_of
from players.models import Player

pytestmark = pytest.mark.django_db

# Quotes, commas, braces, backslashes, spaces and accents: what an array's text spells out
# specially, and what a player's name may hold.
NAMES = ['o"brien', "a,b", "{curly}", "back\\slash", "two  words", "émile", "null", "NULL"]


@pytest.fixture
def players() -> list[Player]:
    return [
        Player.objects.create(handle=f"p{i}", display_name=name, canonical_name=name)
        for i, name in enumerate([*NAMES, "left out"])
    ]


def test_the_rows_among_the_values_are_those_in_gives(players):
    wanted = {*NAMES, "nobody"}

    found = Player.objects.filter(any_of("canonical_name", wanted))

    assert sorted(found.values_list("pk", flat=True)) == sorted(
        Player.objects.filter(canonical_name__in=wanted).values_list("pk", flat=True)
    )
    assert found.count() == len(NAMES)


def test_ids_select_their_rows_and_no_values_select_none(players):
    ids = [player.pk for player in players[:3]]

    assert sorted(Player.objects.filter(any_of("pk", ids)).values_list("pk", flat=True)) == ids
    assert not Player.objects.filter(any_of("pk", [])).exists()
    assert Player.objects.exclude(any_of("pk", [])).count() == len(players)
    assert Player.objects.exclude(any_of("pk", ids)).count() == len(players) - 3


def test_the_values_go_as_one_parameter_however_many(players):
    sent = []

    def record(execute, sql, params, many, context):
        sent.append(params)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        list(Player.objects.filter(any_of("pk", range(1, 500))))

    assert [len(params) for params in sent] == [1]
