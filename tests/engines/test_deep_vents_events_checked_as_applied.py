"""A Deep Vents replay leaves its events out of the schema's first pass (issue 25): each
handler proves its event valid by the schema as it applies it, or has the whole log
checked (DeepVentsState._unproven). Verdicts stay those of the schema-first replay: a log
the schema refuses gets the schema's error, whatever else is wrong with it."""

import copy
import random

import pytest
from deep_vents_support import simulated_log

from engines import LogError, MalformedLogError, replay
from engines.core import schema_fast
from engines.core.replay import finish, start
from engines.deep_vents.edition import editions
from engines.deep_vents.schema import EVENT_FIELDS
from engines.registry import get_game

GAME = get_game("deep-vents")


@pytest.fixture(scope="module")
def game_log():
    return simulated_log(players=4, seed=3)


def schema_first(log):
    """The replay as before: the whole schema checked before any event is applied."""
    return finish(log, *start(log), collect_facts=True)


def verdict(run, log):
    try:
        done = run(log)
    except LogError as error:
        return error.to_dict()
    return {"scores": done.outcome.scores, "facts": done.facts}


def first_index(log, kind):
    return next(i for i, e in enumerate(log["events"]) if e["type"] == kind)


def test_a_key_the_event_type_does_not_take_is_the_schemas_error(game_log):
    bad = copy.deepcopy(game_log)
    index = first_index(bad, "grow")
    bad["events"][index]["colour"] = "red"
    with pytest.raises(MalformedLogError) as caught:
        replay(bad, collect_facts=True)
    assert caught.value.index == index
    assert caught.value.to_dict() == verdict(schema_first, bad)


def test_the_schemas_error_comes_before_an_earlier_illegal_event(game_log):
    bad = copy.deepcopy(game_log)
    take = first_index(bad, "take")
    bad["events"][take]["position"] = 6  # illegal, not malformed
    end = len(bad["events"]) - 1
    bad["events"][end]["use"] = True  # an end takes no `use`: the schema refuses it
    error = verdict(lambda log: replay(log, collect_facts=True), bad)
    assert error["index"] == end
    assert error == verdict(schema_first, bad)


def test_a_seat_written_as_a_float_gets_the_schema_first_verdict(game_log):
    floats = copy.deepcopy(game_log)
    for event in floats["events"]:
        event["seat"] = float(event["seat"])  # an integer to the schema, not to every handler
    got = verdict(lambda log: replay(log, collect_facts=True), floats)
    assert got == verdict(schema_first, floats)
    assert got["kind"] == "malformed" and "scores" not in got


def test_the_schema_bounds_hold_every_editions_bids_and_rows():
    """The handlers prove `amount` and `position` in range from the edition's bid base and
    the row: both must stay within what the schema allows."""
    for edition in editions().values():
        assert max(edition.bid_base.values()) <= EVENT_FIELDS["amount"]["maximum"]
    assert EVENT_FIELDS["position"]["maximum"] >= 6  # a row holds 6 or 5 (DV-2)


def test_whatever_the_handlers_accept_the_schema_accepts(game_log):
    """Events corrupted one field at a time: every log the replay verifies is valid by the
    schema, and every verdict is the schema-first replay's."""
    accepts = schema_fast.accepts(GAME.schema())
    rng = random.Random(25)
    values = [True, 1.0, 2.0, None, "1", -1, 0, 1, 3, 7, 101, [0, 0], [1.0, 0], [0], {}, 1.5]
    fields = ["seat", "hex", "from", "source", "use", "position", "amount", "extra"]
    for _ in range(300):
        bad = copy.deepcopy(game_log)
        bad["events"][rng.randrange(len(bad["events"]))][rng.choice(fields)] = rng.choice(values)
        got = verdict(lambda log: replay(log, collect_facts=True), bad)
        assert got == verdict(schema_first, bad)
        if "scores" in got:
            assert accepts(bad)
