"""The montecarlo bot reads the other seats from the decisions it saw them make (issue 24):
bot games tell a bot the others' decisions (Strategy.observe), the Deep Dive bot weighs each
seat's heuristics by them as a log's analysis does, and its playouts seat the others as read
and itself as the playout bot."""

import itertools
import random

from engines.analysis.strategy import choose_by_playouts, playout_seats, read_table, search
from engines.analysis.table_reading import TableReading
from engines.core.bots import RandomStrategy
from engines.core.game import Strategy
from engines.core.simulate import play_out, simulate_game
from engines.deep_dive.bots import RiskAware, SurfaceAfter2
from engines.registry import get_game

DIVE = get_game("deep-dive")
TABLE = ["montecarlo", "risk-aware", "surface-after-3", "surface-after-2"]


class Watcher(RandomStrategy):
    """A random bot that records what it is told."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, dict]] = []

    def observe(self, state, seat, event):
        assert state.current_seat() == seat  # told before the decision is applied
        self.seen.append((seat, event))


def test_a_bot_game_tells_a_watching_bot_every_other_seats_decision_and_nothing_else():
    state = DIVE.new_state(DIVE.ruleset({}), 3, {})
    bots = [Watcher(), RandomStrategy(), RandomStrategy()]
    events = play_out(state, bots, random.Random(2))
    others = [(e["seat"], e) for e in events if e["type"] in ("surface", "stay") and e["seat"]]
    assert bots[0].seen == others and others  # no roll, no draw, none of its own decisions


def test_the_deep_dive_bot_reads_a_seat_that_surfaces_on_two_shells_as_surface_after_2():
    game = DIVE
    log = simulate_game(game, game.ruleset({}), TABLE, random.Random(5))
    state = game.new_state(game.ruleset({}), 4, {})
    reading = None
    for event in log["events"]:
        if event["type"] in ("surface", "stay") and event["seat"] != 0:
            reading = read_table(game.id, reading, state, event["seat"], event)
        state.apply_action(event)
    best = [reading.readings[max(range(6), key=w.__getitem__)] for w in reading.weights]
    assert best[1:] == [
        (game.strategies["risk-aware"], 0.0),
        (game.strategies["surface-after-3"], 0.0),
        (game.strategies["surface-after-2"], 0.0),
    ]


def test_a_game_whose_bot_does_not_read_the_table_keeps_no_reading():
    game = get_game("deep-sea-adventure")
    state = game.new_state(
        game.ruleset({}), 2, game.new_setup(game.ruleset({}), 2, random.Random(1))
    )
    played = state.decision_actions()[0]
    assert read_table(game.id, None, state, state.current_seat(), played) is None


def test_a_playout_seats_the_others_as_read_and_the_bot_itself_as_the_playout_bot():
    reading = TableReading(DIVE, 3)
    surface_after_2 = reading.readings.index((SurfaceAfter2, 0.0))
    reading.weights[2] = [float(i == surface_after_2) for i in range(len(reading.readings))]
    seats = playout_seats(RiskAware, 1, reading, random.Random(0), 3)
    assert type(seats[1]) is RiskAware and type(seats[2]) is SurfaceAfter2
    assert all(isinstance(bot, Strategy) for bot in seats)


def test_the_search_with_a_reading_picks_a_legal_action_and_repeats_for_its_seed():
    state = DIVE.new_state(DIVE.ruleset({}), 4, {})
    rng = random.Random(3)
    while state.is_chance_node():  # the dives and the shark, to the first decision
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([e for e, _ in outcomes], [p for _, p in outcomes])[0])
    seat, legal = state.current_seat(), state.legal_actions()
    reading = TableReading(DIVE, 4)
    first = search(DIVE, state, seat, legal, "seed", reading=reading)
    assert first in legal
    assert search(DIVE, state.clone(), seat, legal, "seed", reading=reading) == first


def swapped_unseen_chips(state):
    """A copy whose first two path chips of one level trade values: nobody has seen them."""
    twin = state.clone()
    places = [(i, j) for i, item in enumerate(twin.path) for j, _ in enumerate(item or ())]
    for (i, j), (k, m) in itertools.combinations(places, 2):
        (level, value), (other_level, other_value) = twin.path[i][j], twin.path[k][m]
        if level == other_level and value != other_value:
            first, second = list(twin.path[i]), list(twin.path[k])
            first[j], second[m] = (level, other_value), (level, value)
            twin.path[i], twin.path[k] = tuple(first), tuple(second)
            return twin
    return None


def test_the_bot_decides_alike_on_states_that_differ_only_in_what_its_seat_has_not_seen():
    game = get_game("deep-sea-adventure")
    seats = ["grab-2-then-turn", "air-aware", "grab-3-then-turn"]
    log = simulate_game(game, game.ruleset({}), seats, random.Random(6))
    state = game.new_state(game.ruleset({}), 3, log["setup"])
    compared = 0
    for event in log["events"]:
        twin = None if state.is_chance_node() else swapped_unseen_chips(state)
        legal = state.decision_actions() if twin is not None else []
        if len(legal) > 1:
            seat = state.current_seat()
            for k in range(3):  # the positions its playouts start from: the same
                one, two = (game.resample(s, seat, random.Random(k)) for s in (state, twin))
                assert (one.path, one.carried) == (two.path, two.carried)
            choices = {
                str(choose_by_playouts(game.id, s, legal, random.Random(compared)))
                for s in (state, twin)
            }
            assert len(choices) == 1
            compared += 1
        state.apply_action(event)
    assert compared > 20
