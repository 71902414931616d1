"""The named bots: each plays whole legal games; the boost bots use or skip the boost."""

import pytest

from engines.core.replay import replay, verify
from engines.core.simulate import game_rng, simulate_game
from engines.registry import get_game

DSA, BOOST = get_game("deep-sea-adventure"), get_game("deep-sea-adventure-boost")


def test_each_game_has_at_least_three_named_strategies():
    assert {"random", "grab-2-then-turn", "grab-3-then-turn", "air-aware"} <= set(DSA.strategies)
    assert {"air-aware-boost", "always-boost"} <= set(BOOST.strategies)


@pytest.mark.parametrize("game", [DSA, BOOST], ids=lambda game: game.id)
def test_every_strategy_plays_complete_games_that_verify(game):
    names = sorted(game.strategies)
    seats = min(len(names), game.max_players)
    for index in range(4):  # rotating: every strategy sits at some table
        table = [names[(index * seats + seat) % len(names)] for seat in range(seats)]
        log = simulate_game(game, game.ruleset(), table, game_rng("bots", index))
        assert verify(log).to_result() == log["result"]


def boosts_by_strategy(strategies: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(strategies, 0)
    for index in range(3):
        log = simulate_game(BOOST, BOOST.ruleset(), strategies, game_rng("boost", index))
        for event in log["events"]:
            if event["type"] == "boost":
                counts[strategies[event["seat"]]] += 1
    return counts


def test_always_boost_boosts_and_the_air_aware_diver_never_does():
    counts = boosts_by_strategy(["always-boost", "air-aware", "grab-2-then-turn"])
    assert counts["always-boost"] > 0
    assert counts["air-aware"] == 0
    assert counts["grab-2-then-turn"] == 0


def test_grab_2_then_turn_dives_on_only_below_2_chips_and_never_carries_more():
    log = simulate_game(DSA, DSA.ruleset(), ["grab-2-then-turn"] * 3, game_rng("grab", 0))
    checked = []

    def check(index: int, state) -> None:
        event = log["events"][index]
        if event["type"] in ("swim", "turn", "pick") and state.dive == 1:
            carried = len(state.carried[event["seat"]])
            checked.append(event["type"])
            assert carried < 2 if event["type"] == "swim" else carried <= 2

    replay(log, on_event=check)
    assert {"swim", "turn", "pick"} <= set(checked)
