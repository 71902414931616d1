"""Deep Vents choices name hexes, never coordinates (issue 16, the Record page): a hex in play
by its name, a second hex of a kind (DV-1: two copies of each) and a free cell by one
neighbour and a direction on the DV-4 pointy-top grid; each choice also says what it is
about on the picture, so the page can make it clickable there."""

import random

import pytest
from deep_vents_support import (
    EDITION,
    EXAMPLE_LAYOUT,
    GAME,
    ev,
    full_stack,
    lay_out,
    new_state,
    simulated_log,
    start_activation,
)

from engines.core.replay import replay
from engines.registry import get_game

NAMES = {hex_id: kind.name for hex_id, kind in EDITION.hexes.items()}


def stack_starting_with(*hexes: str) -> list[str]:
    rest = full_stack()
    for hex_id in hexes:
        rest.remove(hex_id)
    return [*hexes, *rest]


def placing(hex_id: str, layout: list[tuple[str, tuple[int, int]]] = ()):
    """Seat 0 has taken `hex_id` (position 1) and must place it; its ecosystem is `layout`."""
    state = new_state(stack=stack_starting_with(hex_id), first_player=0)
    lay_out(state, 0, list(layout))
    state.apply_action(ev("take", 0, position=1))
    return state


def labels(state) -> dict[str, dict]:
    snapshot = state.snapshot()
    return {
        GAME.describe(event, snapshot): event
        for event in state.legal_actions()
        if event["type"] != "payoff"
    }


def test_the_first_placement_names_each_cell_by_its_direction_from_the_deep_vent_dv_4():
    offered = labels(placing("yeti-crab"))

    assert offered == {
        "place Yeti Crab east of Deep Vent": ev("place", 0, hex=(1, 0)),
        "place Yeti Crab west of Deep Vent": ev("place", 0, hex=(-1, 0)),
        "place Yeti Crab north-east of Deep Vent": ev("place", 0, hex=(1, -1)),
        "place Yeti Crab north-west of Deep Vent": ev("place", 0, hex=(0, -1)),
        "place Yeti Crab south-east of Deep Vent": ev("place", 0, hex=(0, 1)),
        "place Yeti Crab south-west of Deep Vent": ev("place", 0, hex=(-1, 1)),
    }


def test_a_cell_touching_several_hexes_is_named_by_one_of_them_east_or_west_first():
    # (1, -1) is north-east of the Deep Vent and north-west of the Undersea Volcano at
    # (1, 0): north-east comes first in the list. (2, -1) touches only the Volcano. (0, 1) is
    # south-east of the Deep Vent and south-west of the Volcano: south-east comes first.
    state = placing("goblin-shark", [("undersea-volcano", (1, 0))])
    by_cell = {tuple(event["hex"]): text for text, event in labels(state).items()}

    assert by_cell[(1, -1)] == "place Goblin Shark north-east of Deep Vent"
    assert by_cell[(2, -1)] == "place Goblin Shark north-east of Undersea Volcano"
    assert by_cell[(2, 0)] == "place Goblin Shark east of Undersea Volcano"
    assert by_cell[(0, 1)] == "place Goblin Shark south-east of Deep Vent"
    assert len(by_cell) == 8


def test_every_hex_of_the_rulebook_example_ecosystem_grows_by_its_own_name_dv_5():
    state = new_state()
    lay_out(state, 0, EXAMPLE_LAYOUT)
    state.players[0].hexes[(1, 1)].decimated = True
    order = start_activation(state, 0)
    grown = []
    for tile in order:
        snapshot = state.snapshot()
        grow = next(e for e in state.legal_actions() if e["type"] == "grow")
        assert grow["hex"] == list(tile.at)
        grown.append(GAME.describe(grow, snapshot))
        state.apply_action(grow)

    assert grown == [
        "grow Deep Vent",
        "grow Yeti Crab",
        "grow Goblin Shark",
        "grow White Smoker",
        "grow Lanternfish",
        "grow Scaly-Foot Snail",
    ]


def test_the_second_hex_of_a_kind_is_named_by_a_neighbour_dv_1():
    state = new_state()
    lay_out(state, 0, [("yeti-crab", (1, 0)), ("yeti-crab", (-1, 1)), ("porous-rock", (-1, 0))])
    start_activation(state, 0)
    snapshot = state.snapshot()

    east = GAME.describe(ev("trigger", 0, hex=(1, 0)), snapshot)
    south_west = GAME.describe(ev("grow", 0, hex=(-1, 1)), snapshot)

    assert east == "trigger Yeti Crab (east of Deep Vent)"
    # (-1, 1) is south-west of the Deep Vent and south-east of the Porous Rock: the Rock
    # names it because south-east is listed before south-west.
    assert south_west == "grow Yeti Crab (south-east of Porous Rock)"


def test_a_duplicate_touching_only_duplicates_is_named_through_them():
    state = placing(
        "anglerfish",
        [
            ("goblin-shark", (1, 0)),
            ("goblin-shark", (-1, 0)),
            ("yeti-crab", (2, 0)),
            ("yeti-crab", (-2, 0)),
        ],
    )
    snapshot = state.snapshot()

    assert GAME.describe(ev("decimate", 0, hex=(2, 0)), snapshot) == (
        "decimate Yeti Crab (east of Goblin Shark (east of Deep Vent))"
    )
    assert GAME.describe(ev("place", 0, hex=(3, 0)), snapshot) == (
        "place Anglerfish east of Yeti Crab (east of Goblin Shark (east of Deep Vent))"
    )


def test_the_gulper_eel_grow_names_the_hex_it_takes_from_dv_5():
    state = new_state()
    lay_out(state, 0, [("gulper-eel", (1, 0)), ("porous-rock", (2, 0))])
    start_activation(state, 0)
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    offered = labels(state)

    assert "grow Gulper Eel, taking from Porous Rock" in offered
    assert "grow Gulper Eel, taking from Deep Vent" in offered


def test_choices_say_what_they_are_about_on_the_picture():
    state = placing("yeti-crab")
    snapshot = state.snapshot()
    place = GAME.describe_choice(ev("place", 0, hex=(1, 0)), snapshot)
    taking = new_state()
    take = GAME.describe_choice(ev("take", 0, position=3), taking.snapshot())
    shell = GAME.describe_choice(ev("shell", 1, use=True), snapshot)

    assert place == {
        "label": "place Yeti Crab east of Deep Vent",
        "target": {"seat": 0, "at": [1, 0]},
    }
    assert take["target"] == {"row": 3}
    assert "target" not in shell


def test_the_prompt_names_the_hex_to_place_and_the_hex_to_activate():
    state = placing("yeti-crab")
    asked_to_place = GAME.describe_prompt(state.snapshot(), state.waiting_for())
    state.apply_action(ev("place", 0, hex=(1, 0)))
    asked_to_activate = GAME.describe_prompt(state.snapshot(), state.waiting_for())

    assert asked_to_place == "place the Yeti Crab"
    assert asked_to_activate == "grow or trigger Deep Vent"
    assert GAME.describe_prompt(new_state().snapshot(), new_state().waiting_for()) == (
        "take a hex from the row"
    )


@pytest.mark.parametrize(
    "game_id,asked",
    [("deep-dive", "roll the colour die"), ("deep-sea-adventure", "roll the dice")],
)
def test_other_games_prompt_without_the_seat_or_the_event_name(game_id, asked):
    game = get_game(game_id)
    ruleset = game.ruleset()
    state = game.new_state(ruleset, 2, game.new_setup(ruleset, 2, random.Random(1)))
    assert game.describe_prompt(state.snapshot(), state.waiting_for(), ruleset) == asked


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_every_choice_of_a_bot_game_is_named_without_coordinates_and_unlike_the_others(seed):
    log = simulated_log(players=4, seed=seed)
    problems = []

    def check(_, state):
        if state.is_terminal():
            return
        snapshot = state.snapshot()
        texts = [GAME.describe(event, snapshot) for event in state.legal_actions()]
        if len(set(texts)) != len(texts) or any("[" in text for text in texts):
            problems.append(texts)

    replay(log, on_event=check)
    assert problems == []
