"""`can_trigger` answers what `trigger_problem` answers (None: the hex may trigger) without
building its message (DV-6, DV-9, DV-12, DV-13): playouts ask it at every activation."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.replay import start
from engines.core.simulate import simulate
from engines.deep_vents.board import Tile
from engines.deep_vents.edition import editions
from engines.deep_vents.hexes import can_trigger, trigger_problem
from engines.registry import get_game

EDITION = next(iter(editions().values()))
KINDS = sorted(EDITION.hexes.values(), key=lambda kind: kind.id)


def tile(kind, archaea, decimated):
    made = Tile(kind, (0, 0), archaea)
    made.decimated = decimated
    return made


tiles = st.builds(tile, st.sampled_from(KINDS), st.integers(0, 10), st.booleans())


@settings(max_examples=500, deadline=None)
@given(tiles, st.lists(tiles, max_size=6), st.data())
def test_can_trigger_agrees_with_trigger_problem_on_any_hex_and_source(hex_, neighbours, data):
    hex_.neighbours = neighbours
    source = data.draw(st.sampled_from([None, hex_, *neighbours]))
    assert can_trigger(hex_, source) == (trigger_problem(hex_, source) is None)


def test_can_trigger_agrees_with_trigger_problem_on_every_hex_of_simulated_games():
    game = get_game("deep-vents")
    asked = triggers = 0
    for log in simulate(game, game.ruleset({}), 4, 3, "can-trigger"):
        _, _, state = start(log)
        for event in log["events"]:
            for player in state.players:
                for hex_ in player.hexes.values():
                    for source in (None, hex_, *hex_.neighbours):
                        may = can_trigger(hex_, source)
                        assert may == (trigger_problem(hex_, source) is None)
                        asked += 1
                        triggers += may
            state.apply_action(event)
    assert asked > 10_000
    assert 0 < triggers < asked  # both answers were checked
