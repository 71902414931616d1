"""Attacks, shells, decimation and passive grows (RULINGS DV-7, DV-9..DV-13, DV-16)."""

import pytest
from deep_vents_support import ev, lay_out, new_state, start_activation

from engines import IllegalEventError


def attacker(mine, players=3, archaea=None, supplies=(0, 20, 20, 20), shells=(0, 0, 0, 0)):
    """Seat 0 activates Deep Vent plus `mine`; every opponent has only a Deep Vent."""
    state = new_state(players=players)
    lay_out(state, 0, list(mine))
    for at, n in (archaea or {}).items():
        state.players[0].hexes[at].archaea = n
    for player in state.players:
        player.supply, player.shells = supplies[player.seat], shells[player.seat]
    start_activation(state, 0)
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    return state


def test_a_shell_blocks_half_the_damage_rounded_up_dv_7():
    # Colossal Squid example: 5 heat, a shell blocks 3, the defender loses 2.
    state = attacker([("colossal-squid", (1, 0))], players=2, archaea={(1, 0): 4})
    defender = state.players[1]
    defender.shells = 2
    lay_out(state, 1, [("white-smoker", (1, 0)), ("black-smoker", (-1, 0))])
    defender.hexes[(1, 0)].decimated = True  # back: heat
    lay_out(state, 1, [("towering-smoker", (0, 1)), ("undersea-volcano", (0, -1))])
    defender.hexes[(0, -1)].archaea = 1  # a volcano's heat is its archaea
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.current_seat() == 1
    assert state.snapshot()["pending"]["damage"] == 5
    state.apply_action(ev("shell", 1, use=True))
    assert (defender.supply, defender.shells) == (20 - 2, 1)
    assert state.current_seat() == 0


def test_each_repetition_is_a_separate_attack_with_its_own_shell_choice_dv_6_dv_7():
    state = attacker([("gulper-eel", (1, 0))], players=2, archaea={(1, 0): 6}, shells=(0, 2))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    state.apply_action(ev("shell", 1, use=True))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    state.apply_action(ev("shell", 1, use=False))
    assert (state.players[1].supply, state.players[1].shells) == (20 - 1 - 2, 1)


def test_a_defender_without_shells_is_not_asked():
    state = attacker([("gulper-eel", (1, 0))], players=2, archaea={(1, 0): 3})
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.current_seat() == 0
    assert state.players[1].supply == 18


def test_zero_damage_is_no_attack_so_no_shell_choice_dv_7():
    # Anglerfish against an ecosystem without bioluminescence.
    state = attacker([("anglerfish", (1, 0))], players=2, archaea={(1, 0): 3}, shells=(0, 1))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.current_seat() == 0
    assert state.players[1].shells == 1


def test_opponents_answer_clockwise_from_the_attacker_dv_7_dv_16():
    state = new_state(players=4)
    lay_out(state, 2, [("giant-squid", (1, 0))])
    state.players[2].hexes[(1, 0)].archaea = 3
    for player in state.players:
        player.supply, player.shells = 20, 1
    start_activation(state, 2)
    state.apply_action(ev("grow", 2, hex=(0, 0)))
    state.apply_action(ev("trigger", 2, hex=(1, 0)))
    asked = []
    while state.phase == "shell":
        asked.append(state.current_seat())
        state.apply_action(ev("shell", state.current_seat(), use=True))
    assert asked == [3, 0, 1]


def test_a_shell_answer_from_the_wrong_seat_is_refused():
    state = attacker([("gulper-eel", (1, 0))], archaea={(1, 0): 3}, shells=(0, 1, 1))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    with pytest.raises(IllegalEventError, match=r"seat 2 must decide on a shell.*\[DV-7\]"):
        state.apply_action(ev("shell", 2, use=True))


def test_damage_beyond_the_supply_takes_shortfall_tokens_of_ten_dv_7():
    state = attacker([("giant-squid", (1, 0))], players=2, archaea={(1, 0): 9}, supplies=(0, 3))
    for _ in range(3):
        state.apply_action(ev("trigger", 0, hex=(1, 0)))
    defender = state.players[1]
    # 3 < 4 damage: a token and 10, 13 - 4 = 9; then 9 - 4 = 5; then 5 - 4 = 1
    assert (defender.tokens, defender.supply) == (1, 1)


def test_damage_equal_to_the_supply_takes_no_token():
    state = attacker([("giant-squid", (1, 0))], players=2, archaea={(1, 0): 3}, supplies=(0, 4))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert (state.players[1].tokens, state.players[1].supply) == (0, 0)


def test_several_tokens_are_taken_at_once_when_one_loan_is_not_enough_dv_7():
    state = attacker([("bull-cachalot", (1, 0))], players=2, archaea={(1, 0): 5}, supplies=(0, 1))
    lay_out(state, 1, [(h, at) for h, at in [("goblin-shark", (1, 0)), ("gulper-eel", (2, 0))]])
    lay_out(state, 1, [("bull-cachalot", (-1, 0)), ("anglerfish", (0, 1))])
    lay_out(state, 1, [("anglerfish", (-1, 1)), ("goblin-shark", (1, -1))])
    lay_out(state, 1, [("gulper-eel", (0, -1)), ("giant-squid", (-1, 2))])
    state.players[1].hexes[(-1, 2)].decimated = True  # a decimated squid is no prey (DV-11)
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    defender = state.players[1]
    assert (defender.tokens, defender.supply) == (2, 1 + 20 - 14)  # 2 x 7 predation


def test_bull_cachalot_makes_a_squid_owner_decimate_a_squid_of_their_choice_dv_11():
    state = attacker([("bull-cachalot", (1, 0))], players=2, archaea={(1, 0): 5})
    lay_out(state, 1, [("giant-squid", (1, 0)), ("colossal-squid", (-1, 0))])
    lay_out(state, 1, [("vampire-squid", (0, 1))])
    defender = state.players[1]
    defender.hexes[(-1, 0)].archaea = 5
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.current_seat() == 1
    assert sorted(state.snapshot()["pending"]["choices"]) == [[-1, 0], [1, 0]]
    named = r"cannot decimate Vampire Squid; choose one of: Giant Squid, Colossal Squid \[DV-11\]"
    with pytest.raises(IllegalEventError, match=named):
        state.apply_action(ev("decimate", 1, hex=(0, 1)))  # Vampire Squid is no squid
    state.apply_action(ev("decimate", 1, hex=(-1, 0)))
    assert defender.hexes[(-1, 0)].decimated
    assert (defender.supply, defender.hexes[(-1, 0)].archaea) == (20 + 3, 0)  # keeps ceil(5/2)


def test_undersea_volcano_decimates_itself_then_each_opponent_chooses_a_hex_dv_9():
    state = attacker([("undersea-volcano", (1, 0))], archaea={(1, 0): 7})
    lay_out(state, 1, [("porous-rock", (1, 0))])
    state.players[2].hexes[(0, 0)].decimated = True  # seat 2 has no live hex: skips
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    volcano = state.players[0].hexes[(1, 0)]
    assert volcano.decimated and state.players[0].supply == 4
    assert state.current_seat() == 1
    state.apply_action(ev("decimate", 1, hex=(1, 0)))
    assert state.players[1].hexes[(1, 0)].decimated
    assert state.current_seat() == 0 and state.phase == "activate"


def test_a_decimated_hex_cannot_be_activated_but_still_receives_archaea_dv_10_dv_13():
    state = new_state(players=2)
    lay_out(state, 0, [("porous-rock", (1, 0)), ("black-smoker", (0, 1))])
    state.players[0].hexes[(1, 0)].decimated = True
    state.players[0].hexes[(0, 1)].archaea = 2
    start_activation(state, 0)
    with pytest.raises(IllegalEventError, match="decimated"):
        state.apply_action(ev("grow", 0, hex=(1, 0)))
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    state.apply_action(ev("trigger", 0, hex=(0, 1)))
    assert state.players[0].hexes[(1, 0)].archaea == 1


def test_isopod_swarm_gains_five_when_an_opponent_decimates_dv_10():
    state = attacker([("undersea-volcano", (1, 0)), ("isopod-swarm", (0, 1))], players=2)
    state.players[0].hexes[(1, 0)].archaea = 5
    lay_out(state, 1, [("isopod-swarm", (1, 0))])
    swarm_mine = state.players[0].hexes[(0, 1)]
    swarm_theirs = state.players[1].hexes[(1, 0)]
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert (swarm_mine.archaea, swarm_theirs.archaea) == (0, 5)  # my own volcano: theirs gains
    state.apply_action(ev("decimate", 1, hex=(0, 0)))
    assert swarm_mine.archaea == 5  # their decimation: mine gains


def test_a_decimated_isopod_swarm_gains_nothing_dv_10():
    state = attacker([("undersea-volcano", (1, 0))], players=2, archaea={(1, 0): 5})
    lay_out(state, 1, [("isopod-swarm", (1, 0))])
    state.players[1].hexes[(1, 0)].decimated = True
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.players[1].hexes[(1, 0)].archaea == 0


def test_vampire_squid_gains_one_per_repetition_of_an_adjacent_trigger_dv_10():
    state = attacker(
        [("porous-rock", (1, 0)), ("vampire-squid", (2, 0)), ("vampire-squid", (0, 2))],
        players=2,
        archaea={(1, 0): 3},
    )
    for _ in range(3):
        state.apply_action(ev("trigger", 0, hex=(1, 0)))
    hexes = state.players[0].hexes
    assert (hexes[(2, 0)].archaea, hexes[(0, 2)].archaea) == (3, 0)  # (0, 2) is not adjacent


def test_vampire_squid_gain_comes_after_the_triggers_own_effects_dv_16():
    state = attacker(
        [("lanternfish", (1, 0)), ("vampire-squid", (2, 0))], players=2, archaea={(1, 0): 2}
    )
    state.players[0].hexes[(2, 0)].archaea = 9
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.players[0].hexes[(2, 0)].archaea == 10  # fed to 10, the +1 is lost (DV-6)


def test_vampire_squid_gains_after_the_defenders_decide():
    state = attacker(
        [("gulper-eel", (1, 0)), ("vampire-squid", (2, 0))],
        players=2,
        archaea={(1, 0): 3},
        shells=(0, 1),
    )
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.players[0].hexes[(2, 0)].archaea == 0  # the attack is still pending
    state.apply_action(ev("shell", 1, use=False))
    assert state.players[0].hexes[(2, 0)].archaea == 1
