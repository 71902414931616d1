"""Every fact of a turn names the acting player's own turn, counted from 1 (the turn its
turn-end fact closes): takes, offers, places, grows and triggers by the seat, attacks and
decimations by the attacker. Statistics count hexes taken early and late by it."""

import pytest
from deep_vents_support import simulated_log

from engines import replay

# The seat whose turn a fact's "turn" counts.
ACTOR = {"offer": "seat", "take": "seat", "place": "seat", "grow": "seat", "trigger": "seat"}
ACTOR |= {"attack": "attacker", "decimate": "by", "turn-end": "seat"}


@pytest.mark.parametrize("seed", range(6))
def test_each_fact_names_the_turn_its_player_is_playing(seed):
    log = simulated_log(players=2 + seed % 3, seed=seed, ruleset={"name": "starting-bid"})
    facts = replay(log, collect_facts=True).facts
    ended: dict[int, int] = {}
    named = 0
    for fact in facts:
        actor = ACTOR.get(fact["type"])
        if actor is None:
            continue
        seat = fact[actor]
        assert fact["turn"] == ended.get(seat, 0) + 1, fact
        named += 1
        if fact["type"] == "turn-end":
            ended[seat] = fact["turn"]
    assert named > 100
    assert max(ended.values()) == 8  # DV-14: eight turns each (none eliminated at 8)
