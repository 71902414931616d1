"""Verification replays without the detail facts (Game.detail_facts, only a game's page
reads them): every statistics line and elimination must be the same as from all facts."""

from types import SimpleNamespace

import pytest

from engines import GAMES, get_game, replay
from engines.core.simulate import simulate
from stats.adapters import adapter_for
from stats.services.lines import GameLines, turn_orders_and_winning_bid


def lines_and_eliminations(game_id, facts, players):
    seats = [
        SimpleNamespace(seat=s, wins=float(s == 0), expected=0.25, summary={})
        for s in range(players)
    ]
    lines = GameLines(seats=seats)
    adapter_for(game_id).add_lines(lines, facts)
    return (
        None if lines.hexes is None else lines.hexes.rows(),
        lines.rounds,
        turn_orders_and_winning_bid(seats, facts),
        get_game(game_id).eliminations(facts),
    )


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_games_lines_and_eliminations_are_the_same_without_the_detail_facts(game_id):
    game = get_game(game_id)
    players = max(game.min_players, min(4, game.max_players))
    for log in simulate(game, game.ruleset(None), players, 12, "detail-facts"):
        full = replay(log, collect_facts=True).facts
        lean = replay(log, collect_facts=True, detail_facts=False).facts
        assert lines_and_eliminations(game_id, lean, players) == lines_and_eliminations(
            game_id, full, players
        )
        if game.detail_facts:
            assert len(lean) < len(full)  # the detail facts were left out, not kept
