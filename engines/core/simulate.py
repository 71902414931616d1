"""Bot games: play strategies against each other and write an ordinary log."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engines.core.bots import bot_player_names, drawable
from engines.core.errors import UnsupportedRulesetError
from engines.core.game import Event, Game, Ruleset, State, Strategy
from engines.core.schema import FORMAT


def game_rng(seed: int | str, index: int) -> random.Random:
    """The generator of game `index` in a run: independent of chunking."""
    return random.Random(f"{seed}:{index}")


def play_out(
    state: State,
    bots: Sequence[Strategy],
    rng: random.Random,
    on_event: Callable[[State], None] | None = None,
) -> list[Event]:
    """Play a game to its end: bots decide, `rng` rolls the chance outcomes.

    Returns the events played, in order; `on_event(state)` sees the state after each.
    """
    events: list[Event] = []
    # The state's methods, looked up once: this loop runs every step of every playout.
    is_terminal, is_chance_node = state.is_terminal, state.is_chance_node
    current_seat, decision_actions = state.current_seat, state.decision_actions
    apply_action, played = state.apply_action, events.append
    # The bots that read the others' decisions (Strategy.observe): most bots do not.
    watchers = [
        (seat, bot) for seat, bot in enumerate(bots) if type(bot).observe is not Strategy.observe
    ]
    while not is_terminal():
        if is_chance_node():
            outcomes = state.chance_outcomes()
            event = rng.choices([e for e, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            event = _out_of_turn_event(state, state.out_of_turn_actions(), bots, rng)
            if event is None:
                event = bots[current_seat()].choose(state, decision_actions(), rng)
            decider = event.get("seat", current_seat())
            for seat, bot in watchers:
                if seat != decider:
                    bot.observe(state, decider, event)
        apply_action(event)
        played(event)
        if on_event is not None:
            on_event(state)
    return events


def play_to_end(state: State, bots: Sequence[Strategy], rng: random.Random) -> int:
    """play_out without keeping the events (analysis playouts): returns how many were
    played. A forced move of a bot that would play it without a draw or a change of mind
    (`Strategy.skips_forced`) is applied by the state itself (`State.forced_step`), so the
    game ends exactly as play_out would end it with the same generator."""
    steps = 0
    is_terminal, is_chance_node = state.is_terminal, state.is_chance_node
    current_seat, decision_actions = state.current_seat, state.decision_actions
    apply_action, forced_step = state.apply_action, state.forced_step
    out_of_turn_actions = state.out_of_turn_actions
    # A game whose states keep State.is_chance_node never rolls: it is not asked each step.
    rolls = type(state).is_chance_node is not State.is_chance_node
    while not is_terminal():
        steps += 1
        if rolls and is_chance_node():
            outcomes = state.chance_outcomes()
            event = rng.choices([e for e, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            bot = bots[current_seat()]
            if bot.skips_forced():
                forced = forced_step()
                if forced:
                    steps += forced - 1
                    continue
            offered = out_of_turn_actions()  # most often none: then no call to weigh them
            event = _out_of_turn_event(state, offered, bots, rng) if offered else None
            if event is None:
                event = bot.choose(state, decision_actions(), rng)
        apply_action(event)
    return steps


def _out_of_turn_event(
    state: State, events: list[Event], bots: Sequence[Strategy], rng: random.Random
) -> Event | None:
    """Seats other than the decider, in seat order, may act first (DV-8 payoffs): `events`
    are the state's out_of_turn_actions()."""
    if not events:
        return None
    offered: dict[int, list[Event]] = {}
    for event in events:
        offered.setdefault(event["seat"], []).append(event)
    for seat, own in sorted(offered.items()):
        event = bots[seat].act_out_of_turn(state, own, rng)
        if event is not None:
            return event
    return None


def simulate_game(
    game: Game,
    ruleset: Ruleset,
    strategies: Sequence[str],
    rng: random.Random,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Play one game between bots; returns its log, result included."""
    unknown = [s for s in strategies if s not in game.strategies]
    if unknown:
        raise UnsupportedRulesetError(
            f"unknown strategy {unknown[0]!r} for {game.id}; known: {', '.join(game.strategies)}"
        )
    bots = [game.strategies[name]() for name in strategies]
    setup = game.new_setup(ruleset, len(bots), rng)
    state = game.new_state(ruleset, len(bots), setup)
    events = play_out(state, bots, rng)
    titles = {name: strategy.title for name, strategy in game.strategies.items()}
    names = names or bot_player_names(list(strategies), titles)
    return {
        "format": FORMAT,
        "game": game.id,
        "ruleset": ruleset.to_json(),
        "players": [{"name": n, "strategy": s} for n, s in zip(names, strategies, strict=True)],
        "setup": setup,
        "events": events,
        "result": state.outcome().to_result(),
    }


def table_strategies(
    game: Game, players: int, strategies: Sequence[str] | None, rng: random.Random
) -> list[str]:
    """The strategies at a table: as given, or drawn at random from the game's bots."""
    if strategies:
        if len(strategies) != players:
            raise UnsupportedRulesetError(
                f"{len(strategies)} strategies given for {players} players"
            )
        return list(strategies)
    return [rng.choice(drawable(game.strategies)) for _ in range(players)]


def simulate(
    game: Game,
    ruleset: Ruleset,
    players: int,
    games: int,
    seed: int | str,
    strategies: Sequence[str] | None = None,
    start: int = 0,
) -> Iterator[dict[str, Any]]:
    """Logs of games start..start+games-1 of the run `seed` (deterministic)."""
    for index in range(start, start + games):
        rng = game_rng(seed, index)
        table = table_strategies(game, players, strategies, rng)
        yield simulate_game(game, ruleset, table, rng)
