"""The Deep Vents bots: distinct named strategies whose games verify like any log."""

import pytest
from deep_vents_support import new_state, simulated_log

from engines import verify
from engines.deep_vents.bots import STRATEGIES


def test_there_are_at_least_four_named_described_strategies():
    assert len(STRATEGIES) >= 4
    for name, strategy in STRATEGIES.items():
        assert strategy.name == name and strategy.description


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_each_strategy_plays_games_that_verify(name):
    log = simulated_log(players=3, seed=5, strategies=[name, "grower", "random"])
    assert list(verify(log).scores) == log["result"]["scores"]


def answer_to(opening, name):
    import random

    state = new_state(players=4, ruleset="starting-bid", opening_bidder=0)
    state.apply_action({"type": "bid", "seat": 0, "amount": opening})
    bot = STRATEGIES[name]()
    return bot.choose(state, state.legal_actions(), random.Random(0))


def test_strategies_bid_differently():
    assert answer_to(0, "turtle") == {"type": "pass", "seat": 1}
    assert answer_to(0, "grower") == {"type": "bid", "seat": 1, "amount": 1}
    assert answer_to(1, "grower") == {"type": "pass", "seat": 1}
    assert answer_to(1, "lookahead") == {"type": "bid", "seat": 1, "amount": 2}
    assert answer_to(2, "lookahead") == {"type": "pass", "seat": 1}
    assert answer_to(2, "attacker") == {"type": "bid", "seat": 1, "amount": 3}


def test_strategies_play_differently():
    logs = {
        name: simulated_log(players=2, seed=11, strategies=[name, "grower"])
        for name in ("grower", "attacker", "turtle", "lookahead")
    }
    seat0_events = {
        name: [e for e in log["events"] if e["seat"] == 0] for name, log in logs.items()
    }
    distinct = {repr(events) for events in seat0_events.values()}
    assert len(distinct) == len(logs)
