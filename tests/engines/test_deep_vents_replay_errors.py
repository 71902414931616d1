"""Replay refuses bad logs with typed errors naming event, seat, problem and ruling."""

import copy

import pytest
from deep_vents_support import simulated_log

from engines import (
    IllegalEventError,
    MalformedLogError,
    ResultMismatchError,
    UnsupportedRulesetError,
    replay,
    verify,
)


@pytest.fixture(scope="module")
def game_log():
    return simulated_log(players=3, seed=7, strategies=["grower", "attacker", "turtle"])


def first_index(log, kind):
    return next(i for i, e in enumerate(log["events"]) if e["type"] == kind)


def tampered(log, index, **changes):
    bad = copy.deepcopy(log)
    bad["events"][index].update(changes)
    return bad


def test_an_engine_written_log_verifies(game_log):
    assert list(verify(game_log).scores) == game_log["result"]["scores"]


def test_an_unaffordable_take_names_the_event_seat_and_ruling(game_log):
    index = first_index(game_log, "take")
    seat = game_log["events"][index]["seat"]
    bad = tampered(game_log, index, position=6)
    winning_bid = [e for e in bad["events"][:index] if e["type"] == "bid"][-1]
    winning_bid["amount"] = 15  # 3 players start with 15: the winner keeps nothing (DV-3)
    with pytest.raises(IllegalEventError) as caught:
        verify(bad)
    err = caught.value
    assert (err.index, err.seat, err.rule) == (index, seat, "DV-2")
    assert (
        str(err)
        == f"event {index} (seat {seat + 1}): cannot take position 6: needs 5 archaea, has 0 [DV-2]"
    )


def test_a_wrong_claimed_score_is_a_result_mismatch_naming_both(game_log):
    bad = copy.deepcopy(game_log)
    bad["result"]["scores"][0] += 1
    with pytest.raises(ResultMismatchError) as caught:
        verify(bad)
    assert str(bad["result"]["scores"]) in str(caught.value)
    assert str(game_log["result"]["scores"]) in str(caught.value)


def test_a_wrong_claimed_winner_is_a_result_mismatch(game_log):
    bad = copy.deepcopy(game_log)
    winner = game_log["result"]["winners"][0]
    bad["result"]["winners"] = [(winner + 1) % 3]
    with pytest.raises(ResultMismatchError, match="claimed winners"):
        verify(bad)


def test_an_event_by_the_wrong_seat_is_refused(game_log):
    index = first_index(game_log, "take")
    seat = game_log["events"][index]["seat"]
    with pytest.raises(
        IllegalEventError, match=rf"seat {seat + 1} must take a hex from the row \[DV-2\]"
    ):
        verify(tampered(game_log, index, seat=(seat + 1) % 3))


def test_an_unknown_event_type_fails_the_schema(game_log):
    with pytest.raises(MalformedLogError, match=r"there is no \"teleport\" event") as caught:
        verify(tampered(game_log, 3, type="teleport"))
    assert (caught.value.index, caught.value.field) == (3, "events.3.type")


def test_a_field_on_the_wrong_event_type_fails_the_schema(game_log):
    index = first_index(game_log, "grow")
    with pytest.raises(MalformedLogError, match="'amount' is not a field of a grow event"):
        verify(tampered(game_log, index, amount=3))


def test_a_grow_without_its_hex_is_malformed(game_log):
    index = first_index(game_log, "grow")
    bad = copy.deepcopy(game_log)
    del bad["events"][index]["hex"]
    with pytest.raises(MalformedLogError, match=r"hex must be a \[q, r\] pair") as caught:
        verify(bad)
    assert caught.value.index == index


def test_a_log_that_stops_early_is_refused(game_log):
    bad = copy.deepcopy(game_log)
    del bad["events"][-5:]
    with pytest.raises(IllegalEventError, match="the log ends before the game does"):
        verify(bad)


def test_events_after_the_end_are_refused(game_log):
    bad = copy.deepcopy(game_log)
    bad["events"].append({"type": "payoff", "seat": 0})
    with pytest.raises(IllegalEventError, match="already over"):
        verify(bad)


@pytest.mark.parametrize(
    ("ruleset", "message"),
    [
        ({"name": "speed"}, "unknown ruleset 'speed'"),
        (
            {"name": "standard", "options": {"turns": 4}},
            "'turns' is not a field of ruleset.options",
        ),
        ({"name": "standard", "options": {"row_size": 7}}, "JSON Schema"),
        ({"name": "standard", "edition": "second"}, "unknown edition 'second'"),
    ],
)
def test_unknown_rulesets_options_and_editions_are_refused(game_log, ruleset, message):
    bad = copy.deepcopy(game_log)
    bad["ruleset"] = ruleset
    with pytest.raises((UnsupportedRulesetError, MalformedLogError), match=message):
        verify(bad)


def test_row_size_outside_five_or_six_is_an_unsupported_option():
    from engines.deep_vents.game import DeepVents

    with pytest.raises(UnsupportedRulesetError, match=r"row_size is 6 or 5.*\[DV-2\]"):
        DeepVents().ruleset({"name": "standard", "options": {"row_size": 4}})


def test_too_many_players_is_malformed(game_log):
    bad = copy.deepcopy(game_log)
    bad["players"].extend([{"name": "e"}, {"name": "f"}])
    with pytest.raises(MalformedLogError, match="JSON Schema"):
        verify(bad)


def test_replay_can_show_the_state_after_every_event(game_log):
    seen = []
    replay(game_log, on_event=lambda i, state: seen.append(state.snapshot()["phase"]))
    assert len(seen) == len(game_log["events"])
    assert seen[-1] == "over" and "bid" in seen
