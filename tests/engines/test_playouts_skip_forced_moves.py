"""Analysis playouts (`play_to_end`) let the state apply a forced move itself when the bot
would play it without a draw (`State.forced_step`, `Strategy.skips_forced`): the games end
exactly as `play_out` ends them with the same generator, and a forced step is the one legal
event applied."""

import random

from engines.core.bots import mixed_strategy
from engines.core.replay import start
from engines.core.simulate import play_out, play_to_end, simulate
from engines.deep_vents.bots import GrowerStrategy, LookaheadStrategy
from engines.registry import get_game
from tests.engines.test_deep_vents_clone import state_picture

GAME = get_game("deep-vents")


def positions(games: int = 3, every: int = 5):
    """States along simulated 4-player Deep Vents games, as playouts see them (no facts)."""
    for log in simulate(GAME, GAME.ruleset({}), 4, games, "forced"):
        _, _, state = start(log)
        for index, event in enumerate(log["events"]):
            if index % every == 0:
                yield state.clone()
            state.apply_action(event)


def test_a_playout_that_skips_forced_moves_ends_as_one_that_asks_the_bots():
    bot = GAME.playout_strategy()
    for number, state in enumerate(positions(every=11)):
        asked, skipped = state.clone(), state.clone()
        events = play_out(asked, [bot() for _ in range(4)], random.Random(number))
        steps = play_to_end(skipped, [bot() for _ in range(4)], random.Random(number))
        assert state_picture(skipped) == state_picture(asked)
        assert skipped.outcome() == asked.outcome()
        assert steps == len(events)


def test_forced_steps_are_the_single_legal_events_applied_while_the_same_seat_decides():
    applied = runs = 0
    for state in positions():
        stepped, played = state.clone(), state.clone()
        count = stepped.forced_step()
        if not count:
            assert state_picture(stepped) == state_picture(state)  # nothing changed
            continue
        seat = played.current_seat()
        for _ in range(count):
            assert played.current_seat() == seat  # a turn's end is the last step taken
            assert not played.out_of_turn_actions()
            (event,) = played.decision_actions()
            played.apply_action(event)
        assert state_picture(stepped) == state_picture(played)
        if event["type"] != "end":  # it went on as far as the moves were forced
            assert not stepped.clone().forced_step()
        applied += count
        runs += count > 1
    assert applied > 50
    assert runs > 10  # several forced moves in a row are taken at once


def test_a_state_recording_facts_takes_no_forced_step():
    for state in positions(1):
        state.facts = []
        assert not state.forced_step()


def test_a_mixed_bot_skips_forced_moves_only_once_its_bot_is_drawn():
    mixed = mixed_strategy((GrowerStrategy,), 0.2)()
    assert not mixed.skips_forced()  # its first decision draws the bot from the generator
    mixed.drawn(random.Random(0))
    assert mixed.skips_forced()
    assert not LookaheadStrategy().skips_forced()  # a forced take still plans the placement


def test_the_free_cells_and_their_contacts_are_kept_up_to_date_placement_by_placement():
    """Asked before every event (so each placement updates the last count, as in playouts)
    and asked only now and then (so it counts afresh): always the cells counted here."""
    for asked_every in (1, 9):
        for log in simulate(GAME, GAME.ruleset({}), 4, 2, "frontier"):
            _, _, state = start(log)
            for index, event in enumerate(log["events"]):
                if index % asked_every == 0:
                    for seat, player in enumerate(state.players):
                        assert state.frontier(seat) == naive_frontier(player.hexes)
                state.apply_action(event)


def naive_frontier(hexes):
    around = [(q + dq, r + dr) for q, r in hexes for dq, dr in
              ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))]  # fmt: skip
    contacts = {c: around.count(c) for c in around if c not in hexes}
    return sorted(contacts, key=lambda c: (c[1], 2 * c[0] + c[1])), contacts
