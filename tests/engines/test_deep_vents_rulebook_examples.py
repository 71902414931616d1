"""The rulebook's grow and trigger examples, laid out as RULINGS DV-5 places them (DV-15)."""

import pytest
from deep_vents_support import EXAMPLE_LAYOUT, ev, lay_out, new_state, start_activation


def example_table(archaea: int = 0):
    """Seat 0 owns the example ecosystem, its Black Smoker decimated; seat 1 is the opponent."""
    state = new_state(players=2)
    hexes = lay_out(state, 0, EXAMPLE_LAYOUT)
    hexes[(1, 1)].decimated = True
    for tile in hexes.values():
        tile.archaea = 0 if tile.decimated else archaea
    opponent = state.players[1]
    opponent.supply, opponent.shells = 10, 2
    start_activation(state, 0)
    return state, hexes


def test_activation_order_is_the_rulebook_numbering_dv_4():
    state, _ = example_table()
    names = [t.kind.id for t in state.activation]
    assert names == [
        "deep-vent",
        "yeti-crab",
        "goblin-shark",
        "white-smoker",
        "lanternfish",
        "scaly-foot-snail",
    ]  # the decimated Black Smoker (5) is not activated


def test_grow_example_gives_exactly_the_rulebook_archaea_dv_15():
    state, hexes = example_table()
    for tile in list(state.activation):
        state.apply_action(ev("grow", 0, hex=tile.at))
    got = {t.kind.id: t.archaea for t in hexes.values()}
    assert got == {
        "deep-vent": 2,
        "yeti-crab": 5,  # 3 heat + 2 rock
        "goblin-shark": 2,  # 2 rock
        "white-smoker": 2,
        "black-smoker": 0,  # decimated: no grow, but its heat counts for neighbours
        "lanternfish": 1,  # 1 predation
        "scaly-foot-snail": 3,  # 2 heat + 1 rock
    }


def test_trigger_example_in_sequence_from_five_everywhere_dv_15():
    state, hexes = example_table(archaea=5)
    me, opponent = state.players
    supply = me.supply
    state.apply_action(ev("trigger", 0, hex=(0, 0)))  # 1. collect 5
    state.apply_action(ev("trigger", 0, hex=(1, 0)))  # 2. pay 3, shell, attack 1
    assert state.current_seat() == 1  # the opponent decides on a shell (DV-7)
    state.apply_action(ev("shell", 1, use=False))
    state.apply_action(ev("trigger", 0, hex=(-1, 1)))  # 3. shell destroyed, attack 1
    state.apply_action(ev("shell", 1, use=False))
    state.apply_action(ev("trigger", 0, hex=(0, 1)))  # 4. collect 5
    state.apply_action(ev("trigger", 0, hex=(-1, 2)))  # 6. pay 3 (3 adjacent), +1 each
    state.apply_action(ev("trigger", 0, hex=(0, 2)))  # 7. pay 4, gain 1 shell, advance
    assert me.supply == supply + 10
    assert me.shells == 2
    assert (opponent.supply, opponent.shells) == (10 - 2, 2 - 1)
    got = {t.kind.id: t.archaea for t in hexes.values()}
    assert got == {
        "deep-vent": 0,
        "yeti-crab": 2,
        "goblin-shark": 3,  # 2 left + 1 from the Lanternfish
        "white-smoker": 1,  # emptied, then +1 from the Lanternfish
        "black-smoker": 0,
        "lanternfish": 2,
        "scaly-foot-snail": 2,  # 5 + 1 from the Lanternfish - 4 (DV-15)
    }
    assert hexes[(0, 2)].kind.track[hexes[(0, 2)].track] == 2  # next trigger gains 2


@pytest.mark.parametrize(
    ("at", "left", "supply_gain", "shells_gain", "opponent_loss"),
    [
        ((0, 0), 0, 5, 0, 0),  # 1. take 5 into supply
        ((1, 0), 2, 0, 1, 1),  # 2. pay 3, gain 1 shell, attack 1
        ((-1, 1), 2, 0, 0, 1),  # 3. pay 3, opponents discard a shell, attack 1
        ((0, 1), 0, 5, 0, 0),  # 4. take 5 into supply
        ((-1, 2), 2, 0, 0, 0),  # 6. pay 3, +1 to each adjacent hex
        ((0, 2), 1, 0, 1, 0),  # 7. pay 4, gain 1 shell: "this leaves 1 archaea behind"
    ],
)
def test_trigger_example_each_hex_alone_from_five_dv_15(
    at, left, supply_gain, shells_gain, opponent_loss
):
    state, hexes = example_table(archaea=5)
    state.players[1].shells = 0  # no shell choices: the attack lands in full
    me, opponent = state.players
    for tile in list(state.activation):
        if tile.at == at:
            break
        state.apply_action(ev("grow", 0, hex=tile.at))  # growing touches only that hex here
    supply, shells = me.supply, me.shells
    state.apply_action(ev("trigger", 0, hex=at))
    assert hexes[at].archaea == left
    assert (me.supply - supply, me.shells - shells) == (supply_gain, shells_gain)
    assert opponent.supply == 10 - opponent_loss


def test_lanternfish_feeds_its_three_neighbours_in_the_example():
    state, hexes = example_table(archaea=5)
    state.players[1].shells = 0
    for tile in list(state.activation)[:4]:
        state.apply_action(ev("grow", 0, hex=tile.at))
    state.apply_action(ev("trigger", 0, hex=(-1, 2)))
    assert [hexes[c].archaea for c in [(-1, 1), (0, 1), (0, 2)]] == [
        5 + 2 + 1,  # Goblin Shark grew 2, then +1
        5 + 2 + 1,  # White Smoker grew 2, then +1
        5 + 1,
    ]
    assert hexes[(1, 1)].archaea == 0  # not adjacent to the Lanternfish
