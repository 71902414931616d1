"""Per-round facts for the statistics pages (draws, shark hits, surfacing, points)."""

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_game, replay
from engines.core.simulate import simulate, simulate_game

EXAMPLE = Path(__file__).parent / "golden/deep-dive/docs-example-tie.json"
GAME = get_game("deep-dive")


def facts_of(kind):
    facts = replay(json.loads(EXAMPLE.read_text()), collect_facts=True).facts
    return [fact for fact in facts if fact["type"] == kind]


def test_facts_are_skipped_unless_asked_for():
    assert replay(json.loads(EXAMPLE.read_text())).facts is None


def test_every_draw_is_a_fact_with_round_pass_and_shells():
    draws = facts_of("draw")
    assert len(draws) == 7
    assert draws[0] == {
        "type": "draw", "round": 1, "pass": 1, "seat": 0, "colour": "blue", "shells": 3,
    }  # fmt: skip
    assert draws[2] == {
        "type": "draw", "round": 2, "pass": 1, "seat": 1, "colour": "yellow", "shells": 2,
    }  # fmt: skip
    assert draws[4]["pass"] == 2


def test_shark_facts_name_who_lost_how_many_shells():
    sharks = facts_of("shark")
    assert [s["hits"] for s in sharks] == [
        [{"seat": 0, "shells_lost": 3}], [], [{"seat": 1, "shells_lost": 5}], [],
    ]  # fmt: skip
    assert [s["seat"] for s in sharks] == [0, 1, 1, 0]


def test_surfacing_facts_record_shells_pearls_and_whether_forced():
    surfacings = facts_of("surface")
    assert surfacings[0] == {
        "type": "surface", "round": 1, "pass": 1, "seat": 1, "shells": 3,
        "white": 1, "black": 2, "empty": 0, "forced": False,
    }  # fmt: skip
    assert surfacings[-1]["forced"] is True
    assert surfacings[-1]["seat"] == 1


def test_round_facts_give_points_per_round_and_shells_drawn():
    rounds = facts_of("round")
    assert [r["points"] for r in rounds] == [[0, 1], [2, 0], [0, 1]]
    assert [r["starting_seat"] for r in rounds] == [0, 1, 0]
    assert [r["shells_drawn"] for r in rounds] == [6, 7, 5]
    assert [r["passes"] for r in rounds] == [1, 2, 1]


def rounds_played_and_facts(log):
    """The rounds the game's facts mention, and its `round` facts, in order."""
    replayed = replay(log, collect_facts=True)
    played = sorted({fact["round"] for fact in replayed.facts if fact["type"] != "round"})
    rounds = [fact for fact in replayed.facts if fact["type"] == "round"]
    return replayed, played, rounds


@settings(max_examples=30, deadline=None)
@given(
    table=st.integers(min_value=2, max_value=4).flatmap(
        lambda players: st.lists(
            st.sampled_from(sorted(GAME.strategies)), min_size=players, max_size=players
        )
    ),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_every_round_played_has_one_round_fact_the_one_the_game_ends_in_included(table, seed):
    """DD-5: the game ends mid-round (4th black pearl, or an empty pool); that round is still
    summed up, once, so the statistics count its points."""
    log = simulate_game(GAME, GAME.ruleset(), table, random.Random(seed))
    replayed, played, rounds = rounds_played_and_facts(log)

    assert [fact["round"] for fact in rounds] == played
    points = [sum(fact["points"][seat] for fact in rounds) for seat in range(len(table))]
    assert points == list(replayed.outcome.scores)


def test_a_game_ended_by_an_empty_pool_has_the_round_fact_of_its_last_round():
    """DD-5: the pool runs dry on a dive; the divers still in the water open, then the round
    is summed up with every pearl opened in it, theirs included."""
    ended_dry = []
    for log in simulate(GAME, GAME.ruleset(), 2, 60, "pool-empty"):
        replayed, played, rounds = rounds_played_and_facts(log)
        if replayed.state.pool == 0:
            ended_dry.append((replayed, played, rounds))
    assert ended_dry  # bot games do empty the pool now and then

    for replayed, played, rounds in ended_dry:
        last = played[-1]
        assert rounds[-1]["round"] == last
        assert any(fact["type"] == "surface" and fact["forced"] for fact in replayed.facts)
        for seat in range(2):
            opened = sum(
                fact["white"]
                for fact in replayed.facts
                if fact["type"] == "surface" and fact["round"] == last and fact["seat"] == seat
            )
            assert rounds[-1]["points"][seat] == opened
