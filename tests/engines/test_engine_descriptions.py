"""Engines describe their own events (as OpenSpiel's action_to_string, python-chess's san):
labels read against the snapshot before the event, glossaries from the edition data, the
hexes a recording enters as drawn (DV-2) and the stacking orders still open (DSA-5)."""

import json
import random
from pathlib import Path

import pytest
from deep_vents_support import EDITION, ev, lay_out, new_state, start_activation
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.describe import describe_generic
from engines.core.errors import LogError
from engines.core.replay import describe_error, describe_event, replay
from engines.core.simulate import simulate
from engines.registry import GAMES, get_game

DEEP_VENTS = get_game("deep-vents")
DSA = get_game("deep-sea-adventure")
DEEP_DIVE = get_game("deep-dive")


def label(game, state, event):
    return game.describe(event, state.snapshot())


# --- Deep Vents ----------------------------------------------------------------------


def test_a_take_names_the_hex_its_price_and_the_archaea_on_it_dv_2():
    state = new_state()
    state.row_archaea[2] = 1
    third = EDITION.hexes[state.row[2].id].name
    assert label(DEEP_VENTS, state, ev("take", 0, position=3)) == (
        f"take {third} at position 3 (pay 2, 1 archaea on it)"
    )
    first = EDITION.hexes[state.row[0].id].name
    assert label(DEEP_VENTS, state, ev("take", 0, position=1)) == (
        f"take {first} at position 1 (pay 0)"
    )


def test_a_gulper_eel_grow_names_both_hexes_by_their_edition_names():
    state = new_state()
    lay_out(state, 0, [("gulper-eel", (1, 0)), ("porous-rock", (2, 0))])
    start_activation(state, 0)
    event = ev("grow", 0, hex=(1, 0), **{"from": (2, 0)})
    event = {**event, "hex": [1, 0], "from": [2, 0]}
    assert label(DEEP_VENTS, state, event) == "grow Gulper Eel, taking from Porous Rock"


def test_a_repeated_trigger_says_again_dv_6():
    vent = {"hex": "deep-vent", "at": [0, 0]}
    snapshot = {"players": [{"seat": 0, "hexes": [vent]}], "pending": {"repeat": [0, 0]}}
    event = {"type": "trigger", "seat": 0, "hex": [0, 0]}
    assert DEEP_VENTS.describe(event, snapshot) == "trigger Deep Vent again"


@pytest.mark.parametrize(
    "event,text",
    [
        ({"type": "shell", "seat": 1, "use": True}, "spend a shell (block half)"),
        ({"type": "shell", "seat": 1, "use": False}, "take the attack (no shell)"),
        ({"type": "payoff", "seat": 2}, "pay off a shortfall token"),
        ({"type": "bid", "seat": 0, "amount": 4}, "bid 4"),
        ({"type": "end", "seat": 0}, "end the turn"),
    ],
)
def test_deep_vents_decisions_in_words(event, text):
    assert DEEP_VENTS.describe(event, new_state().snapshot()) == text


def test_the_deep_vents_glossary_is_the_edition_data_dv_1():
    glossary = DEEP_VENTS.glossary()
    assert glossary["hexes"]["gulper-eel"] == "Gulper Eel"
    assert sum(glossary["stack"].values()) == 38
    assert (glossary["capacity"], glossary["payoff"]) == (10, 10)


def test_an_opening_row_entered_as_drawn_offers_what_is_left_of_each_hex_dv_2():
    ruleset = DEEP_VENTS.ruleset()
    draw = DEEP_VENTS.setup_draw(ruleset, {"stack": ["anglerfish"]}, 0, None)
    offered = {choice["draw"]: choice["label"] for choice in draw["choices"]}
    assert offered["anglerfish"] == "Anglerfish (1 left)"
    assert offered["yeti-crab"] == "Yeti Crab (2 left)"
    assert draw["waiting_for"] == "the hex drawn for position 2 of the first row"


def test_a_full_opening_row_needs_no_draw_dv_2():
    stack = ["anglerfish", "black-smoker", "yeti-crab", "lanternfish", "porous-rock", "gulper-eel"]
    assert DEEP_VENTS.setup_draw(DEEP_VENTS.ruleset(), {"stack": stack}, 0, None) is None


# --- Deep Sea Adventure and Deep Dive ----------------------------------------------------


@pytest.mark.parametrize(
    "event,text",
    [
        ({"type": "roll", "seat": 0, "dice": [3, 1]}, "roll 3 + 1"),
        ({"type": "choose", "seat": 0, "dice": [3, 2]}, "move with 3 + 2"),
        ({"type": "drop", "seat": 0, "chip": 1}, "drop carried chip 2"),  # counted from 1
        (
            {"type": "stack", "seat": 1, "order": [1, 0]},
            "stack the carried items in the order 2, 1",
        ),
        ({"type": "turn", "seat": 0}, "turn back to the submarine"),
        ({"type": "pass", "seat": 0}, "leave the treasure"),
    ],
)
def test_deep_sea_adventure_events_in_words(event, text):
    assert DSA.describe(event, {}) == text


def test_the_deep_sea_adventure_glossary_gives_chip_values_and_air_dsa_1():
    glossary = DSA.glossary()
    assert glossary["air"] == 25
    assert glossary["levels"][0] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert glossary["levels"][3] == [12, 12, 13, 13, 14, 14, 15, 15]


def test_stacking_orders_are_open_right_after_a_dive_for_divers_with_several_items_dsa_5():
    state = DSA.new_state(DSA.ruleset(), 2, DSA.new_setup(DSA.ruleset(), 2, random.Random(1)))
    state.position = [5, 6]
    state.carried = [[((1, 0),), ((1, 1),)], [((2, 4),)]]
    for space in (5, 6):
        state.path[space - 1] = None
    state.air = 1
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # moves 2 - 2 = 0
    state.apply_action({"type": "pass", "seat": 0})
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})  # breathed the last air
    state.apply_action({"type": "pass", "seat": 1})
    assert state.recording_extras() == {
        "stacking": [{"seat": 0, "items": [[{"level": 1, "value": 0}], [{"level": 1, "value": 1}]]}]
    }


@pytest.mark.parametrize(
    "event,text",
    [
        ({"type": "dive", "seat": 0, "colour": "red"}, "colour die: red"),
        ({"type": "shark", "seat": 0, "colour": "blue"}, "shark die: blue"),
        (
            {"type": "open", "seat": 1, "white": 2, "black": 1, "empty": 0},
            "opened 2 white, 1 black, 0 empty",
        ),
        ({"type": "surface", "seat": 1}, "surface and open the shells"),
        ({"type": "stay", "seat": 1}, "stay in the water"),
    ],
)
def test_deep_dive_events_in_words(event, text):
    assert DEEP_DIVE.describe(event, {}) == text


# --- every game ------------------------------------------------------------------------------


@settings(max_examples=8, deadline=None)
@given(game_id=st.sampled_from(list(GAMES)), seed=st.integers(0, 10_000))
def test_every_event_of_a_bot_game_has_a_description_of_its_own(game_id, seed):
    game = get_game(game_id)
    log = next(simulate(game, game.ruleset(), 3, 1, seed=seed))
    snapshots = [game.new_state(game.ruleset(), 3, log["setup"]).snapshot()]
    replay(log, on_event=lambda _, state: snapshots.append(state.snapshot()))
    for event, before in zip(log["events"], snapshots, strict=False):
        text = game.describe(event, before)
        assert text != describe_generic(event, before)
        assert "?" not in text and "the hex at" not in text


# --- an event of a log, told to someone who played it --------------------------------------

GOLDEN = Path(__file__).parent / "golden"


def golden(name):
    return json.loads((GOLDEN / name).read_text())


@pytest.mark.parametrize(
    "name,index,told",
    [
        ("deep-vents/hand-recorded-example.json", 0, "the bidding, Ana: bid 0"),
        # Said once: not "the bidding, Ana: pass (leave the bidding)" (DV-3).
        ("deep-vents/hand-recorded-example.json", 2, "the bidding, Ana: pass for good"),
        (
            "deep-vents/hand-recorded-example.json",
            20,
            "turn 4, Ana: place Colossal Squid east of Black Smoker",
        ),
        ("deep-sea-adventure/hand-written-short-game.json", 5, "dive 1, turn 3, Ann: roll 2 + 2"),
        ("deep-dive/docs-example-tie.json", 5, "round 2, Bob: colour die: yellow"),
    ],
)
def test_an_event_of_a_log_is_told_with_when_who_and_the_games_own_words(name, index, told):
    assert describe_event(golden(name), index) == told


def test_an_event_past_the_logs_end_is_no_event_at_all():
    log = golden("deep-dive/docs-example-tie.json")
    with pytest.raises(IndexError, match=f"no event {len(log['events'])}"):
        describe_event(log, len(log["events"]))


def test_an_event_after_an_illegal_one_cannot_be_told():
    log = golden("deep-vents/hand-recorded-example.json")
    log["events"][3] = {"type": "take", "seat": 1, "position": 99}
    with pytest.raises(LogError):
        describe_event(log, 20)


# --- a verdict's error, told to someone who played it ----------------------------------------


def refused(log):
    with pytest.raises(LogError) as refusal:
        replay(log)
    return refusal.value.to_dict()


def test_an_illegal_event_is_told_when_and_by_whom_with_every_seat_named_dv_2():
    log = golden("deep-vents/hand-recorded-example.json")
    log["events"][3] = {"type": "take", "seat": 0, "position": 1}  # Ben's take, made Ana's

    error = refused(log)

    assert error["text"].startswith("event 3 (seat 1): it is not seat 1's decision")
    assert describe_error(log, error) == (
        "turn 1, Ana: it is not Ana's decision: Ben must take a hex from the row [DV-2]"
    )


def test_an_event_the_schema_refuses_is_told_at_its_moment_too_dv_3():
    log = golden("deep-vents/hand-recorded-example.json")
    log["events"][1] = {"type": "bid", "seat": 1, "amount": 700}

    assert describe_error(log, refused(log)) == (
        "the bidding, Ben: amount 700 does not exist; a bid is a whole number of archaea, "
        "0 or more [DV-3]"
    )


def test_a_log_that_stops_too_soon_is_told_where_it_stops_dv_14():
    log = golden("deep-vents/hand-recorded-example.json")
    log["events"] = log["events"][:10]

    assert describe_error(log, refused(log)) == (
        "turn 2, Ana: the log ends before the game does: Ana must grow or trigger Black Smoker"
        " [DV-14]"
    )


def test_a_claimed_result_that_differs_is_told_without_the_logs_field_path():
    log = golden("deep-vents/hand-recorded-example.json")
    log["result"]["scores"] = [score + 1 for score in log["result"]["scores"]]

    error = refused(log)

    assert error["text"].startswith("result.scores: claimed scores ")
    assert describe_error(log, error) == error["message"]


def test_seats_in_a_message_are_named_and_a_seat_the_table_lacks_is_left_as_written():
    log = golden("deep-vents/hand-recorded-example.json")
    error = {"message": "seat 2 is not seat 1; no seat 2", "index": None, "rule": "DV-3"}

    assert describe_error(log, error) == "Ben is not Ana; no seat 2 [DV-3]"
