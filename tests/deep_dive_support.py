"""Deep Dive test helpers: a game played from a fresh state through given events."""

from engines import get_game

GAME = get_game("deep-dive")


def play(players, *events, facts=False):
    """The state after `events` (any seat count); with `facts`, the facts are collected."""
    state = GAME.new_state(GAME.ruleset(), players, {})
    if facts:
        state.facts = []
    for event in events:
        state.apply_action(event)
    return state
