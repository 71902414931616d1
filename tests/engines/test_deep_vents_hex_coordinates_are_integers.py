"""A hex is named by two integers (DV-4): a coordinate written as a float such as 1.0, which
the schema lets through as an integer, is refused by the rules, whichever event names it."""

import copy

import pytest
from deep_vents_support import simulated_log

from engines import MalformedLogError, replay


@pytest.fixture(scope="module")
def game_log():
    return simulated_log(players=3, seed=7, strategies=["grower", "attacker", "turtle"])


@pytest.mark.parametrize("kind", ["place", "grow", "trigger"])
def test_a_hex_written_with_a_float_coordinate_is_refused_naming_the_event(game_log, kind):
    index = next(i for i, e in enumerate(game_log["events"]) if e["type"] == kind)
    event = game_log["events"][index]
    q, r = event["hex"]
    bad = copy.deepcopy(game_log)
    bad["events"][index]["hex"] = [float(q), r]
    with pytest.raises(MalformedLogError) as caught:
        replay(bad)
    error = caught.value.to_dict()
    assert error["index"] == index
    assert error["seat"] == event["seat"]
    assert error["field"] == "hex"
    assert error["rule"] == "DV-4"
    assert f"hex must be a [q, r] pair of integers, not [{float(q)!r}, {r!r}]" in error["message"]
