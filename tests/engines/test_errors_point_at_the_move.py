"""Every error about an event names its index, its seat and the ruling, in words a
scorekeeper understands; schema failures included (issue 13, docs/log-format.md)."""

import copy
import subprocess
import sys
from pathlib import Path

import pytest
from deep_vents_support import ev, lay_out, new_state, simulated_log, start_activation

from engines import IllegalEventError, LogError, MalformedLogError, replay
from engines.core.simulate import simulate
from engines.registry import get_game

ROOT = Path(__file__).resolve().parents[2]


def bot_game(game_id: str, players: int = 3) -> dict:
    game = get_game(game_id)
    return next(simulate(game, game.ruleset(None), players, 1, seed="errors"))


@pytest.fixture(scope="module")
def deep_vents():
    return simulated_log(players=3, seed=7, strategies=["grower", "attacker", "turtle"])


@pytest.fixture(scope="module")
def deep_sea_adventure():
    return bot_game("deep-sea-adventure")


@pytest.fixture(scope="module")
def deep_dive():
    return bot_game("deep-dive")


def first(log: dict, kind: str) -> int:
    return next(i for i, e in enumerate(log["events"]) if e["type"] == kind)


def refusal(log: dict, index: int | None = None, **changes) -> LogError:
    bad = copy.deepcopy(log)
    if index is not None:
        bad["events"][index].update(changes)
    with pytest.raises(LogError) as caught:
        replay(bad)
    return caught.value


def without(log: dict, *fields: str, index: int) -> dict:
    bad = copy.deepcopy(log)
    for name in fields:
        del bad["events"][index][name]
    return bad


# --- Deep Vents ----------------------------------------------------------------------


def test_a_position_of_7_names_the_event_its_seat_and_dv_2(deep_vents):
    index = first(deep_vents, "take")
    seat = deep_vents["events"][index]["seat"]
    error = refusal(deep_vents, index, position=7)
    assert isinstance(error, MalformedLogError)
    assert (error.index, error.seat, error.rule, error.field) == (
        index, seat, "DV-2", f"events.{index}.position"
    )  # fmt: skip
    assert str(error) == (
        f"event {index} (seat {seat + 1}): position 7 does not exist; "
        "the row holds 6 hexes, positions 1 to 6 [DV-2]"
    )


@pytest.mark.parametrize("hex_value", [[1], ["a", "b"]], ids=["one-number", "strings"])
def test_a_hex_that_is_not_a_pair_of_whole_numbers_cites_dv_4(deep_vents, hex_value):
    index = first(deep_vents, "place")
    error = refusal(deep_vents, index, hex=hex_value)
    assert isinstance(error, MalformedLogError)
    assert (error.index, error.seat, error.rule) == (
        index, deep_vents["events"][index]["seat"], "DV-4"
    )  # fmt: skip
    assert "is not valid; a hex is an axial [q, r] pair of whole numbers" in error.message


def test_an_event_without_a_seat_is_malformed_at_its_index(deep_vents):
    index = first(deep_vents, "take")
    with pytest.raises(MalformedLogError) as caught:
        replay(without(deep_vents, "seat", index=index))
    assert (caught.value.index, caught.value.field) == (index, f"events.{index}.seat")
    assert "names no seat" in caught.value.message


def test_a_negative_bid_names_the_bidder_and_dv_3():
    log = simulated_log(players=2, seed=3, strategies=["grower", "grower"])
    index = first(log, "bid")
    error = refusal(log, index, amount=-1)
    assert (error.kind, error.index, error.seat, error.rule) == (
        "malformed", index, log["events"][index]["seat"], "DV-3"
    )  # fmt: skip
    assert "amount -1 does not exist" in error.message


def test_a_wrong_seat_names_whose_decision_it_is_and_its_ruling(deep_vents):
    index = first(deep_vents, "take")
    seat = deep_vents["events"][index]["seat"]
    error = refusal(deep_vents, index, seat=(seat + 1) % 3)
    assert error.rule == "DV-2"
    assert f"seat {seat + 1} must take a hex from the row" in error.message


def test_a_dropped_shell_decision_names_the_pending_shell_not_the_next_event(deep_vents):
    index = first(deep_vents, "shell")
    seat = deep_vents["events"][index]["seat"]
    bad = copy.deepcopy(deep_vents)
    del bad["events"][index]
    with pytest.raises(IllegalEventError) as caught:
        replay(bad)
    assert caught.value.index == index
    assert caught.value.rule == "DV-7"
    assert caught.value.message.startswith(f"seat {seat + 1} must decide on a shell")


def test_no_hex_at_a_cell_cites_dv_4(deep_vents):
    index = first(deep_vents, "grow")
    error = refusal(deep_vents, index, hex=[9, 9])
    assert (error.kind, error.index, error.rule) == ("illegal", index, "DV-4")
    assert error.message.endswith("has no hex there")  # a cell far from its hexes


def test_a_gulper_eel_grow_without_from_is_malformed_not_illegal_dv_5():
    state = new_state()
    lay_out(state, 0, [("gulper-eel", (1, 0))])
    start_activation(state, 0)
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    with pytest.raises(MalformedLogError) as caught:
        state.apply_action(ev("grow", 0, hex=(1, 0)))
    assert (caught.value.kind, caught.value.field, caught.value.rule) == (
        "malformed", "from", "DV-5"
    )  # fmt: skip


def test_an_event_after_the_end_cites_the_end_rule_dv_14(deep_vents):
    bad = copy.deepcopy(deep_vents)
    bad["events"].append({"type": "end", "seat": 0})
    with pytest.raises(IllegalEventError) as caught:
        replay(bad)
    assert (caught.value.index, caught.value.rule) == (len(deep_vents["events"]), "DV-14")
    assert "the game is already over" in caught.value.message


def test_a_log_that_stops_early_names_the_pending_decision_and_dv_14(deep_vents):
    bad = copy.deepcopy(deep_vents)
    last = bad["events"].pop()
    with pytest.raises(IllegalEventError) as caught:
        replay(bad)
    assert (caught.value.index, caught.value.seat, caught.value.rule) == (
        len(bad["events"]), last["seat"], "DV-14"
    )  # fmt: skip
    assert f"the log ends before the game does: seat {last['seat'] + 1} must" in str(caught.value)


# --- Deep Sea Adventure ----------------------------------------------------------------


@pytest.mark.parametrize("dice", [[1], ["a", "b"], [-1, 2]], ids=["one-die", "strings", "negative"])
def test_dice_the_schema_refuses_name_the_roll_and_dsa_1(deep_sea_adventure, dice):
    index = first(deep_sea_adventure, "roll")
    error = refusal(deep_sea_adventure, index, dice=dice)
    assert (error.kind, error.index, error.rule) == ("malformed", index, "DSA-1")
    assert error.seat == deep_sea_adventure["events"][index]["seat"]


def test_a_negative_seat_is_reported_at_its_event_dsa_8(deep_sea_adventure):
    error = refusal(deep_sea_adventure, 3, seat=-1)
    assert (error.index, error.seat, error.rule) == (3, None, "DSA-8")
    assert error.message.startswith("seat -1 does not exist")


def test_a_dsa_event_without_a_seat_is_malformed_at_its_index(deep_sea_adventure):
    with pytest.raises(MalformedLogError) as caught:
        replay(without(deep_sea_adventure, "seat", index=2))
    assert (caught.value.index, caught.value.rule) == (2, "DSA-8")


def test_a_dropped_treasure_decision_names_it_and_not_the_next_event(deep_sea_adventure):
    index = first(deep_sea_adventure, "pick")
    seat = deep_sea_adventure["events"][index]["seat"]
    bad = copy.deepcopy(deep_sea_adventure)
    del bad["events"][index]
    with pytest.raises(IllegalEventError) as caught:
        replay(bad)
    assert caught.value.index == index
    assert f"seat {seat + 1} must pick up, drop or leave treasure" in caught.value.message


def test_the_end_of_a_dsa_game_and_a_short_log_cite_dsa_8(deep_sea_adventure):
    over = copy.deepcopy(deep_sea_adventure)
    over["events"].append({"type": "pass", "seat": 0})
    short = copy.deepcopy(deep_sea_adventure)
    short["events"].pop()
    for bad in (over, short):
        with pytest.raises(IllegalEventError) as caught:
            replay(bad)
        assert caught.value.rule == "DSA-8"


# --- Deep Dive ---------------------------------------------------------------------------


def test_a_negative_count_of_opened_shells_names_the_event_and_dd_4(deep_dive):
    index = first(deep_dive, "open")
    seat = deep_dive["events"][index]["seat"]
    error = refusal(deep_dive, index, white=-1)
    assert str(error) == (
        f"event {index} (seat {seat + 1}): white -1 does not exist; "
        "a count of opened shells, 0 or more [DD-4]"
    )


def test_a_deep_dive_event_without_a_seat_is_no_longer_any_definition(deep_dive):
    with pytest.raises(MalformedLogError) as caught:
        replay(without(deep_dive, "seat", index=0))
    assert (caught.value.index, caught.value.rule) == (0, "DD-6")
    assert "cannot be validated" not in str(caught.value)


def test_an_unknown_deep_dive_event_lists_the_known_ones(deep_dive):
    error = refusal(deep_dive, 0, type="fly")
    assert (error.index, error.seat, error.field) == (0, 0, "events.0.type")
    assert error.message == 'there is no "fly" event; known: dive, shark, surface, stay, open'


def test_a_wrong_colour_type_names_the_die_ruling_dd_1(deep_dive):
    error = refusal(deep_dive, 0, colour=3)
    assert (error.kind, error.index, error.rule) == ("malformed", 0, "DD-1")


def test_a_dropped_surface_or_stay_names_the_pending_decision_dd_3(deep_dive):
    index = first(deep_dive, "surface")
    seat = deep_dive["events"][index]["seat"]
    bad = copy.deepcopy(deep_dive)
    del bad["events"][index]
    with pytest.raises(IllegalEventError) as caught:
        replay(bad)
    assert (caught.value.index, caught.value.rule) == (index, "DD-3")
    assert caught.value.message.startswith(f"seat {seat + 1} must surface or stay")


def test_the_end_of_a_deep_dive_game_and_a_short_log_cite_dd_5(deep_dive):
    over = copy.deepcopy(deep_dive)
    over["events"].append({"type": "stay", "seat": 0})
    short = copy.deepcopy(deep_dive)
    short["events"].pop()
    for bad in (over, short):
        with pytest.raises(IllegalEventError) as caught:
            replay(bad)
        assert caught.value.rule == "DD-5"


# --- no log at all -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,content", [("empty.jsonl", ""), ("blank.jsonl", "\n \n"), ("empty.json", "")]
)
def test_verifying_a_file_with_no_log_in_it_fails(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content)
    done = subprocess.run(
        [sys.executable, "-m", "engines", "verify", str(path)],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 1
    assert f"{path}: invalid" in done.stdout


def test_a_drop_without_its_chip_is_malformed_not_illegal():
    game = get_game("deep-sea-adventure")
    chips = [value for level in game.editions()["first"].levels for value in level]
    state = game.new_state(game.ruleset(), 2, {"chips": chips})
    state.carried[0] = [((1, 0),)]
    state.path[1] = None  # space 2 is blank: the diver may drop there
    state.apply_action({"type": "swim", "seat": 0})
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 1]})  # 3 - 1 chip: to space 2
    with pytest.raises(MalformedLogError) as caught:
        state.apply_action({"type": "drop", "seat": 0})
    assert (caught.value.field, caught.value.rule) == ("chip", "DSA step 4")
