"""The engines deal only what is still chance when a seating has fixed part of the setup
(issue 22): a tournament table's opening bidder (DV-3) is drawn when the table is seated,
so "deal randomly" at that table shuffles the stack and keeps the seating's opener."""

from __future__ import annotations

import random

import pytest

from engines.core.errors import MalformedLogError
from engines.registry import get_game

DEEP_VENTS = get_game("deep-vents")
NAMES = ["Marina Abyss", "Nemo Nautilus", "Coral Reefson"]


def test_a_fixed_opening_bidder_is_kept_for_every_deal_while_unfixed_deals_vary():
    ruleset = DEEP_VENTS.ruleset()  # starting-bid, the tournament default
    fixed = [
        DEEP_VENTS.new_setup(ruleset, 3, random.Random(seed), fixed={"opening_bidder": 2})
        for seed in range(30)
    ]
    drawn = [DEEP_VENTS.new_setup(ruleset, 3, random.Random(seed)) for seed in range(30)]

    assert {setup["opening_bidder"] for setup in fixed} == {2}
    # Without a seating the opener is drawn: over 30 deals all three seats come up.
    assert {setup["opening_bidder"] for setup in drawn} == {0, 1, 2}


def test_fixing_the_opener_still_shuffles_the_stack_exactly_as_an_unfixed_deal_would():
    ruleset = DEEP_VENTS.ruleset()
    for seed in range(5):
        kept = DEEP_VENTS.new_setup(ruleset, 4, random.Random(seed), fixed={"opening_bidder": 1})
        free = DEEP_VENTS.new_setup(ruleset, 4, random.Random(seed))
        assert kept["stack"] == free["stack"]
    stacks = {
        tuple(
            DEEP_VENTS.new_setup(ruleset, 4, random.Random(s), fixed={"opening_bidder": 1})["stack"]
        )
        for s in range(5)
    }
    assert len(stacks) == 5  # the stack is still chance


def test_a_dealt_setup_with_a_fixed_opener_starts_a_game_whose_bidding_that_seat_opens():
    ruleset = DEEP_VENTS.ruleset()
    setup = DEEP_VENTS.new_setup(ruleset, 3, random.Random(9), fixed={"opening_bidder": 2})
    state = DEEP_VENTS.new_state(ruleset, 3, setup)

    assert state.current_seat() == 2


def test_the_standard_ruleset_fixes_the_first_player_instead():
    ruleset = DEEP_VENTS.ruleset({"name": "standard"})
    setup = DEEP_VENTS.new_setup(ruleset, 2, random.Random(1), fixed={"first_player": 1})

    assert setup["first_player"] == 1 and "opening_bidder" not in setup


@pytest.mark.parametrize(
    ("game_id", "ruleset_name", "fixed", "field", "words"),
    [
        ("deep-vents", None, {"first_player": 1}, "setup.first_player", "cannot decide"),
        ("deep-vents", None, {"opening_bidder": 3}, "setup.opening_bidder", "no seat 3"),
        ("deep-vents", None, {"opening_bidder": "1"}, "setup.opening_bidder", "no seat '1'"),
        ("deep-sea-adventure", None, {"chips": [0]}, "setup.chips", "cannot decide"),
        ("deep-dive", None, {"opening_bidder": 0}, "setup.opening_bidder", "cannot decide"),
    ],
)
def test_a_fixed_field_the_seating_cannot_decide_is_refused_naming_it(
    game_id, ruleset_name, fixed, field, words
):
    game = get_game(game_id)
    ruleset = game.ruleset({"name": ruleset_name} if ruleset_name else None)
    with pytest.raises(MalformedLogError) as refused:
        game.new_setup(ruleset, 3, random.Random(1), fixed=fixed)

    assert refused.value.field == field
    assert words in refused.value.message


def test_a_setup_contradicting_the_seating_names_both_players_the_field_and_dv_3():
    ruleset = DEEP_VENTS.ruleset()
    error = DEEP_VENTS.setup_contradiction(
        ruleset, {"stack": [], "opening_bidder": 0}, {"opening_bidder": 2}, NAMES
    )

    assert error.field == "setup.opening_bidder" and error.rule == "DV-3"
    assert str(error) == (
        "setup.opening_bidder: the table's seating has Coral Reefson opening the bidding, "
        "not Marina Abyss [DV-3]"
    )
    agreeing = {"stack": [], "opening_bidder": 2}
    assert DEEP_VENTS.setup_contradiction(ruleset, agreeing, {"opening_bidder": 2}, NAMES) is None


def test_a_setup_missing_the_fixed_field_is_a_contradiction_too():
    error = DEEP_VENTS.setup_contradiction(
        DEEP_VENTS.ruleset(), {"stack": []}, {"opening_bidder": 1}, NAMES
    )

    assert "has Nemo Nautilus opening the bidding; this setup names no one" in error.message
