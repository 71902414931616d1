"""Every hex type's grow and trigger (hex guide, RULINGS DV-5, DV-6, DV-9..DV-12, DV-16)."""

import pytest
from deep_vents_support import ev, lay_out, new_state, start_activation

from engines import IllegalEventError, MalformedLogError


def table(mine, theirs=(), archaea=None, players=2, opponent_supply=20):
    """Seat 0 activates an ecosystem of Deep Vent (0,0) plus `mine`; seat 1 owns `theirs`.

    `archaea` maps (seat, (q, r)) to the archaea on that hex. Opponents hold no shells,
    so attacks land in full without a shell decision.
    """
    state = new_state(players=players)
    lay_out(state, 0, list(mine))
    lay_out(state, 1, list(theirs))
    for (seat, at), n in (archaea or {}).items():
        state.players[seat].hexes[at].archaea = n
    for player in state.players[1:]:
        player.supply = opponent_supply
    state.players[0].supply = 0
    start_activation(state, 0)
    return state


def activate(state, at, kind="grow", **fields):
    """Grow the hexes before `at` in order, then activate `at`."""
    for tile in list(state.activation):
        if tile.at == tuple(at):
            break
        state.apply_action(ev("grow", 0, hex=tile.at))
    state.apply_action(ev(kind, 0, hex=at, **fields))
    return state.players[0].hexes[tuple(at)]


def archaea(state, seat, at):
    return state.players[seat].hexes[at].archaea


# --- grow -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hex_id", "gain"),
    [
        ("black-smoker", 3),
        ("white-smoker", 2),
        ("porous-rock", 1),
        ("undersea-volcano", 1),
        ("towering-smoker", 1),  # track starts on its first space
        ("giant-tube-worms", 2),  # Deep Vent: 1 heat + 1 rock
        ("scaly-foot-snail", 2),
        ("yeti-crab", 2),
        ("goblin-shark", 1),  # 1 rock
        ("bull-cachalot", 0),  # no predation next to it
        ("lanternfish", 0),
        ("anglerfish", 0),
        ("isopod-swarm", 0),  # passive grow only (DV-10)
        ("colossal-squid", 0),
        ("vampire-squid", 0),
    ],
)
def test_grow_beside_a_lone_deep_vent(hex_id, gain):
    state = table([(hex_id, (1, 0))])
    assert activate(state, (1, 0)).archaea == gain


def test_deep_vent_grows_two():
    state = table([])
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    assert archaea(state, 0, (0, 0)) == 2


def test_predation_growers_count_each_adjacent_predation_symbol():
    for hex_id in ("bull-cachalot", "lanternfish"):
        state = table([(hex_id, (1, 0)), ("goblin-shark", (1, -1)), ("anglerfish", (2, -1))])
        assert activate(state, (1, 0)).archaea == 2, hex_id


def test_anglerfish_grows_per_adjacent_bioluminescence():
    state = table([("anglerfish", (1, 0)), ("lanternfish", (1, -1)), ("vampire-squid", (2, 0))])
    assert activate(state, (1, 0)).archaea == 2


def test_towering_smoker_grows_by_its_track_space():
    state = table([("towering-smoker", (1, 0))])
    state.players[0].hexes[(1, 0)].track = 3
    assert activate(state, (1, 0)).archaea == 4


def test_giant_squid_draws_one_from_each_adjacent_bioluminescent_hex():
    state = table(
        [("giant-squid", (1, 0)), ("lanternfish", (2, 0)), ("glowing-medusa", (1, 1))],
        archaea={(0, (2, 0)): 3, (0, (1, 1)): 0, (0, (0, 0)): 4},
    )
    squid = activate(state, (1, 0))
    assert squid.archaea == 1
    assert archaea(state, 0, (2, 0)) == 2
    assert archaea(state, 0, (0, 0)) == 4 + 2  # Deep Vent is not bioluminescent (it grew 2)


def test_gulper_eel_moves_every_archaeon_of_the_chosen_adjacent_hex():
    state = table([("gulper-eel", (1, 0)), ("porous-rock", (2, 0))], archaea={(0, (2, 0)): 7})
    eel = activate(state, (1, 0), **{"from": (2, 0)})
    assert (eel.archaea, archaea(state, 0, (2, 0))) == (7, 0)


def test_gulper_eel_grow_must_name_an_adjacent_hex():
    state = table([("gulper-eel", (1, 0)), ("porous-rock", (2, 0))])
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    with pytest.raises(MalformedLogError, match=r"must name the adjacent hex in 'from' \[DV-5\]"):
        state.apply_action(ev("grow", 0, hex=(1, 0)))
    with pytest.raises(IllegalEventError, match=r"not one of your hexes adjacent.*\[DV-4\]"):
        state.apply_action(ev("grow", 0, hex=(1, 0), **{"from": (3, 0)}))


def test_gulper_eel_may_empty_a_decimated_neighbour_dv_16():
    state = table([("gulper-eel", (1, 0)), ("porous-rock", (1, -1))], archaea={(0, (1, -1)): 4})
    state.players[0].hexes[(1, -1)].decimated = True
    start_activation(state, 0)
    assert activate(state, (1, 0), **{"from": (1, -1)}).archaea == 4


def test_giant_oarfish_grows_per_adjacent_hex_holding_two_or_more():
    state = table(
        [("giant-oarfish", (1, 0)), ("porous-rock", (2, 0)), ("white-smoker", (1, 1))],
        archaea={(0, (0, 0)): 2, (0, (2, 0)): 1, (0, (1, 1)): 9},
    )
    state.players[0].hexes[(0, 0)].decimated = True  # still holds its archaea (DV-16)
    start_activation(state, 0)
    assert activate(state, (1, 0)).archaea == 2


@pytest.mark.parametrize(("players", "gain"), [(2, 2), (3, 1)])
def test_glowing_medusa_counts_opponent_hexes_holding_at_least_the_player_count(players, gain):
    theirs = [("porous-rock", (1, 0)), ("white-smoker", (-1, 0))]
    state = table(
        [("glowing-medusa", (1, 0))],
        theirs,
        archaea={(1, (0, 0)): 2, (1, (1, 0)): 3, (1, (-1, 0)): 1, (0, (0, 0)): 9},
        players=players,
    )
    assert activate(state, (1, 0)).archaea == gain  # own Deep Vent's 9 do not count


def test_grow_beyond_ten_is_lost_dv_6():
    state = table([("black-smoker", (1, 0))], archaea={(0, (1, 0)): 9})
    assert activate(state, (1, 0)).archaea == 10


# --- trigger --------------------------------------------------------------------------


@pytest.mark.parametrize("hex_id", ["white-smoker", "deep-vent"])
def test_collect_triggers_take_every_archaeon_into_supply(hex_id):
    at = (0, 0) if hex_id == "deep-vent" else (1, 0)
    state = table([] if hex_id == "deep-vent" else [(hex_id, at)], archaea={(0, at): 7})
    assert activate(state, at, "trigger").archaea == 0
    assert state.players[0].supply == 7


def test_a_trigger_that_would_do_nothing_is_refused_so_the_hex_must_grow_dv_6():
    state = table([("white-smoker", (1, 0))])
    with pytest.raises(IllegalEventError, match=r"no archaea to collect.*\[DV-6\]"):
        activate(state, (1, 0), "trigger")


def test_black_smoker_pays_two_collects_the_rest_and_feeds_its_neighbours():
    state = table([("black-smoker", (1, 0)), ("porous-rock", (2, 0))], archaea={(0, (1, 0)): 6})
    activate(state, (1, 0), "trigger")
    assert state.players[0].supply == 4
    assert archaea(state, 0, (1, 0)) == 0
    assert archaea(state, 0, (2, 0)) == 1
    assert archaea(state, 0, (0, 0)) == 2 + 1  # grew 2 first, then fed


def test_towering_smoker_collects_then_advances_and_its_track_stops_at_five_dv_16():
    state = table([("towering-smoker", (1, 0))], archaea={(0, (1, 0)): 3})
    smoker = activate(state, (1, 0), "trigger")
    assert (state.players[0].supply, smoker.track) == (3, 1)
    smoker.track = 4
    smoker.archaea = 1
    state.apply_action(ev("trigger", 0, hex=(1, 0)))  # a repetition
    assert smoker.kind.track[smoker.track] == 5


def test_towering_smoker_cannot_trigger_empty():
    state = table([("towering-smoker", (1, 0))])
    with pytest.raises(IllegalEventError, match=r"\[DV-6\]"):
        activate(state, (1, 0), "trigger")


def test_porous_rock_pays_one_for_a_shell():
    state = table([("porous-rock", (1, 0))], archaea={(0, (1, 0)): 3})
    assert activate(state, (1, 0), "trigger").archaea == 2
    assert state.players[0].shells == 1


def test_giant_tube_worms_pay_five_feed_neighbours_and_gain_a_shell():
    state = table([("giant-tube-worms", (1, 0)), ("porous-rock", (2, 0))], {}, {(0, (1, 0)): 5})
    activate(state, (1, 0), "trigger")
    assert archaea(state, 0, (2, 0)) == 1
    assert state.players[0].shells == 1


def test_scaly_foot_snail_gains_one_two_three_then_three_shells_dv_16():
    state = table([("scaly-foot-snail", (1, 0))], archaea={(0, (1, 0)): 10})
    activate(state, (1, 0), "trigger")
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.players[0].shells == 1 + 2
    snail = state.players[0].hexes[(1, 0)]
    snail.archaea = 8
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.players[0].shells == 1 + 2 + 3 + 3


def test_yeti_crab_gains_a_shell_and_attacks_one():
    state = table([("yeti-crab", (1, 0))], archaea={(0, (1, 0)): 3})
    activate(state, (1, 0), "trigger")
    assert (state.players[0].shells, state.players[1].supply) == (1, 19)


def test_isopod_swarm_pays_one_gains_a_shell_and_collects_the_rest():
    state = table([("isopod-swarm", (1, 0))], archaea={(0, (1, 0)): 4})
    activate(state, (1, 0), "trigger")
    assert (state.players[0].shells, state.players[0].supply) == (1, 3)


def test_goblin_shark_destroys_a_shell_then_attacks_one():
    state = table([("goblin-shark", (1, 0))], archaea={(0, (1, 0)): 3})
    state.players[1].shells = 1
    activate(state, (1, 0), "trigger")
    assert state.players[1].shells == 0  # destroyed first, so no shell decision follows
    assert state.players[1].supply == 19
    assert state.current_seat() == 0


def test_gulper_eel_attacks_two():
    state = table([("gulper-eel", (1, 0))], archaea={(0, (1, 0)): 3})
    activate(state, (1, 0), "trigger")
    assert state.players[1].supply == 18


def test_giant_squid_attacks_four():
    state = table([("giant-squid", (1, 0))], archaea={(0, (1, 0)): 3})
    activate(state, (1, 0), "trigger")
    assert state.players[1].supply == 16


def test_anglerfish_attacks_by_the_defenders_bioluminescence():
    theirs = [("anglerfish", (1, 0)), ("lanternfish", (-1, 0))]
    state = table([("anglerfish", (1, 0))], theirs, {(0, (1, 0)): 3})
    activate(state, (1, 0), "trigger")
    assert state.players[1].supply == 20 - 2


def test_giant_oarfish_attacks_by_the_defenders_hexes_holding_three_or_more():
    theirs = [("porous-rock", (1, 0)), ("white-smoker", (-1, 0))]
    archaea_at = {(0, (1, 0)): 3, (1, (0, 0)): 3, (1, (1, 0)): 2, (1, (-1, 0)): 10}
    state = table([("giant-oarfish", (1, 0))], theirs, archaea_at)
    activate(state, (1, 0), "trigger")
    assert state.players[1].supply == 20 - 2


def test_lanternfish_pays_one_per_adjacent_hex_and_feeds_each():
    state = table(
        [("lanternfish", (1, 0)), ("porous-rock", (2, 0)), ("porous-rock", (1, 1))],
        archaea={(0, (1, 0)): 3},
    )
    fish = activate(state, (1, 0), "trigger")
    assert fish.archaea == 0
    assert [archaea(state, 0, c) for c in [(2, 0), (1, 1)]] == [1, 1]


def test_lanternfish_cannot_trigger_below_its_neighbour_count():
    state = table(
        [("lanternfish", (1, 0)), ("porous-rock", (2, 0)), ("porous-rock", (1, 1))],
        archaea={(0, (1, 0)): 2},
    )
    with pytest.raises(IllegalEventError, match=r"costs 3 archaea.*\[DV-6\]"):
        activate(state, (1, 0), "trigger")


def test_glowing_medusa_pays_two_and_collects_the_rest():
    state = table([("glowing-medusa", (1, 0))], archaea={(0, (1, 0)): 6})
    activate(state, (1, 0), "trigger")
    assert state.players[0].supply == 4


def test_vampire_squid_attacks_one_and_banks_one_from_the_general_supply():
    state = table([("vampire-squid", (1, 0))], archaea={(0, (1, 0)): 2})
    activate(state, (1, 0), "trigger")
    assert (state.players[0].supply, state.players[1].supply) == (1, 19)


def test_colossal_squid_spends_an_adjacent_hex_and_attacks_by_heat_dv_12():
    theirs = [("undersea-volcano", (1, 0)), ("white-smoker", (-1, 0))]
    state = table(
        [("colossal-squid", (1, 0))], theirs, {(0, (0, 0)): 6, (1, (1, 0)): 3, (0, (1, 0)): 2}
    )
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    state.apply_action(ev("trigger", 0, hex=(1, 0), source=(0, 0)))
    assert archaea(state, 0, (0, 0)) == 0  # all 8 spent
    # Deep Vent 1 heat + volcano's 3 archaea as heat + White Smoker 1 heat (DV-12)
    assert state.players[1].supply == 20 - 5


def test_colossal_squid_source_defaults_to_itself_and_needs_four():
    state = table([("colossal-squid", (1, 0))], archaea={(0, (1, 0)): 3})
    with pytest.raises(IllegalEventError, match=r"at least 4.*holds 3 \[DV-12\]"):
        activate(state, (1, 0), "trigger")
    state.players[0].hexes[(1, 0)].archaea = 4
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert archaea(state, 0, (1, 0)) == 0
    assert state.players[1].supply == 20 - 1  # their Deep Vent's 1 heat


def test_bull_cachalot_without_squid_attacks_twice_the_predation_dv_11():
    theirs = [("goblin-shark", (1, 0)), ("vampire-squid", (-1, 0))]  # vampire is no squid
    state = table([("bull-cachalot", (1, 0))], theirs, {(0, (1, 0)): 5})
    activate(state, (1, 0), "trigger")
    assert state.players[1].supply == 20 - 2


def test_undersea_volcano_below_five_cannot_trigger_dv_9():
    state = table([("undersea-volcano", (1, 0))], archaea={(0, (1, 0)): 4})
    with pytest.raises(IllegalEventError, match=r"only with 5 or more.*\[DV-9\]"):
        activate(state, (1, 0), "trigger")


def test_undersea_volcano_at_five_cannot_grow_dv_9():
    state = table([("undersea-volcano", (1, 0))], archaea={(0, (1, 0)): 5})
    with pytest.raises(IllegalEventError, match=r"must trigger \[DV-9\]"):
        activate(state, (1, 0))


def test_undersea_volcano_heat_is_its_archaea_dv_5():
    state = table([("undersea-volcano", (1, 0)), ("yeti-crab", (2, 0))], {}, {(0, (1, 0)): 4})
    activate(state, (2, 0))
    assert archaea(state, 0, (2, 0)) == 5  # the volcano grew to 5 first: 5 heat
