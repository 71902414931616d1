"""Reading the table (engines/analysis/table_reading.py): each seat's playout bot weighted by
how the seat played before the decision, as analyses, the board and the calibration check
use it (issue 24)."""

import itertools
import random
from dataclasses import replace

import pytest

from engines.analysis import Budget, analyse_log, decision_points, evaluate_position, read_table
from engines.analysis.table_reading import READING_SEED, TableReading
from engines.core.bots import mixed_strategy
from engines.core.simulate import simulate_game
from engines.registry import GAMES, get_game

SMALL = Budget(target_se=0.1, min_playouts=16, max_playouts=16, batch=16)
DSA = get_game("deep-sea-adventure")
SEATED = ["grab-2-then-turn", "air-aware", "grab-3-then-turn", "air-aware"]


def dsa_log(seed: int = 4):
    return simulate_game(DSA, DSA.ruleset({}), SEATED, random.Random(seed))


def nth_decision(log, n: int):
    """Decision n of a log, its state live (decision_points replays on once resumed)."""
    return next(point for number, point in enumerate(decision_points(log)) if number == n)


def weight(reading: TableReading, seat: int, name: str, randomness: float) -> float:
    bot = DSA.strategies[name]
    return reading.weights[seat][reading.readings.index((bot, randomness))]


def test_every_seat_is_every_pool_bot_steady_or_erratic_until_it_decides():
    reading = read_table(dsa_log(), before=0)
    assert len(reading.readings) == 2 * len(DSA.playout_pool)
    assert {randomness for _, randomness in reading.readings} == {0.0, DSA.playout_randomness}
    assert all(len(set(weights)) == 1 for weights in reading.weights)


def test_a_seat_is_read_as_the_bot_it_played_steadily():
    reading = read_table(dsa_log())
    for seat, name in enumerate(SEATED):
        assert weight(reading, seat, name, 0.0) == max(reading.weights[seat]) > 0.5


def test_one_move_no_pool_bot_would_play_rules_out_every_steady_reading():
    def picks(point):
        rng = random.Random(READING_SEED)
        return {str(bot().choose(point.state, point.actions, rng)) for bot, _ in readings}

    readings = TableReading(DSA, 4).readings
    point = next(p for p in decision_points(dsa_log()) if len(picks(p)) == 1)
    strayed = next(a for a in point.actions if str(a) not in picks(point))
    reading = TableReading(DSA, 4)
    reading.observe(replace(point, played=strayed))
    by_randomness = {
        randomness: {
            weight
            for (_, r), weight in zip(readings, reading.weights[point.seat], strict=True)
            if r == randomness
        }
        for randomness in (0.0, DSA.playout_randomness)
    }
    assert by_randomness[0.0] == {0.0}
    assert (
        len(by_randomness[DSA.playout_randomness]) == 1
        and min(by_randomness[DSA.playout_randomness]) > 0
    )


def test_a_log_analysis_plays_out_each_seat_as_the_table_was_read_before_the_decision():
    log = dsa_log()
    point = nth_decision(log, 20)
    (analysed,) = analyse_log(log, budget=SMALL, seed="0", indices={point.index})
    seats = read_table(log, before=point.index).seats()
    estimates = evaluate_position(
        DSA.id, point.state, point.seat, point.actions, 4, budget=SMALL, seed=f"0:{point.index}",
        seats=seats,
    )  # fmt: skip
    assert [e.to_json() for e in analysed.estimates] == [e.to_json() for e in estimates]


def test_one_bot_given_to_every_seat_is_the_same_as_that_playout_bot():
    point = nth_decision(dsa_log(), 10)
    bot = DSA.strategies["air-aware"]
    one, each = (
        evaluate_position(DSA.id, point.state, point.seat, point.actions, 4, budget=SMALL, **table)
        for table in ({"playout": bot}, {"seats": [bot] * 4})
    )
    assert [e.to_json() for e in one] == [e.to_json() for e in each]


def test_a_weighted_mixed_seat_draws_its_bots_as_often_as_their_weights():
    pool = [DSA.strategies[name] for name in DSA.playout_pool]
    seat = mixed_strategy(pool, 0.0, [1, 0, 3])
    drawn = [type(seat().drawn(random.Random(n))) for n in range(400)]
    assert pool[1] not in drawn
    assert 250 < drawn.count(pool[2]) < 350  # 300 expected


def test_weights_must_be_one_for_each_bot_and_not_all_zero():
    pool = [DSA.strategies[name] for name in DSA.playout_pool]
    for weights in ([1, 1], [0, 0, 0], [1, -1, 1]):
        with pytest.raises(ValueError, match="weight"):
            mixed_strategy(pool, 0.0, weights)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_bot_a_seat_may_be_read_as_decides_without_drawing_as_the_reading_assumes(game_id):
    game = get_game(game_id)
    log = simulate_game(game, game.ruleset({}), [game.playout_pool[0]] * 3, random.Random(2))
    for point in itertools.islice(decision_points(log), 40):
        for name in {*game.playout_pool, *game.reading_pool}:
            bot = game.strategies[name]
            legal = point.state.decision_actions()
            picks = {str(bot().choose(point.state, legal, random.Random(n))) for n in range(3)}
            assert len(picks) == 1, (name, point.index)


def test_a_game_that_does_not_read_the_table_plays_its_playout_bot_at_every_seat():
    class DeepVentsUnread(type(get_game("deep-vents"))):
        playout_reads_table = False

    game = DeepVentsUnread()
    log = simulate_game(game, game.ruleset({}), ["turtle", "attacker"], random.Random(1))
    reading = TableReading(game, 2)
    for point in decision_points(log):
        reading.observe(point)
    assert all(len(set(weights)) == 1 for weights in reading.weights)
    seats = reading.seats()
    playout = game.playout_strategy()
    assert len(seats) == 2
    for seat in seats:
        assert (seat.pool, seat.randomness, seat.weights) == (
            playout.pool,
            playout.randomness,
            None,
        )


DEEP_DIVE = get_game("deep-dive")
DEEP_DIVE_SEATED = ["surface-after-2", "risk-aware", "surface-after-3"]


def test_deep_dive_reads_a_seat_as_any_heuristic_though_its_playouts_seat_risk_aware_alone():
    reading = TableReading(DEEP_DIVE, 3)
    assert {(bot.name, randomness) for bot, randomness in reading.readings} == {
        (name, randomness)
        for name in ("surface-after-2", "surface-after-3", "risk-aware")
        for randomness in (0.0, 0.2)
    }
    # Without a history (the montecarlo bot, the turn-back advisor) nothing changes.
    assert DEEP_DIVE.playout_strategy() is DEEP_DIVE.strategies["risk-aware"]


def test_a_deep_dive_seat_is_read_as_the_heuristic_it_played_steadily():
    log = simulate_game(DEEP_DIVE, DEEP_DIVE.ruleset({}), DEEP_DIVE_SEATED, random.Random(3))
    reading = read_table(log)
    for seat, name in enumerate(DEEP_DIVE_SEATED):
        # Heuristics that would have played every decision of the seat alike tie with it.
        steady = reading.readings.index((DEEP_DIVE.strategies[name], 0.0))
        assert reading.weights[seat][steady] == max(reading.weights[seat]), name
        erratic = [
            w for (_, r), w in zip(reading.readings, reading.weights[seat], strict=True) if r
        ]
        assert sum(erratic) < 0.5, f"{name} read as erratic"


def test_a_deep_vents_seat_is_read_as_the_bot_it_played_steadily():
    game = get_game("deep-vents")
    seated = ["turtle", "grower", "attacker"]
    log = simulate_game(game, game.ruleset({}), seated, random.Random(3))
    reading = read_table(log)
    for seat, name in enumerate(seated):
        weights = reading.weights[seat]
        steady = reading.readings.index((game.strategies[name], 0.0))
        assert weights[steady] == max(weights) > 0.5 * sum(weights), name
