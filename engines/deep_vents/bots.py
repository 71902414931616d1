"""Deep Vents bots: five strategies with different drafting, activation and bidding."""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, ClassVar, cast

from engines.core.bots import RandomStrategy, by_name
from engines.core.game import Event, State, Strategy
from engines.deep_vents.board import Tile, neighbour_cells

if TYPE_CHECKING:
    from engines.deep_vents.edition import HexType
    from engines.deep_vents.state import DeepVentsState

ATTACK_EFFECTS = {"attack", "hunt", "destroy_shell", "opponents_decimate"}
SHELL_EFFECTS = {"gain_shells", "track_shells"}


# What a hex type does never changes: these are asked at every activation of a playout,
# so each answer is kept per hex type.


@cache
def effect_kinds(kind: HexType) -> frozenset[str]:
    return frozenset(effect["kind"] for effect in kind.trigger["effects"])


@cache
def attacks(kind: HexType) -> bool:
    return bool(effect_kinds(kind) & ATTACK_EFFECTS)


@cache
def gives_shells(kind: HexType) -> bool:
    return bool(effect_kinds(kind) & SHELL_EFFECTS)


@cache
def collects(kind: HexType) -> bool:
    return "collect" in effect_kinds(kind)


@cache
def grows_well(kind: HexType) -> bool:
    return kind.grow["kind"] not in ("none", "take_adjacent")


def _tile(state: DeepVentsState, event: Event) -> Tile:
    return state.players[state.active].hexes[tuple(event["hex"])]


class Heuristic(Strategy):
    """Shared play: a greedy turn, shaped by what each strategy values.

    Subclasses set their bidding ceiling, how much they value a hex in the row
    and which triggers they want.
    """

    max_bid: ClassVar[int] = 0

    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        state = cast("DeepVentsState", state)
        if legal[-1]["type"] == "payoff":
            return legal[-1]  # a token forces position 1 and threatens elimination (DV-8)
        phase = state.phase
        if phase == "bid":
            return self.bid(state, legal)
        if phase == "take":
            return self.take(state, legal)
        if phase == "place":
            return self.place(state, legal)
        if phase == "activate":
            return self.activate(state, legal)
        if phase == "shell":
            return self.shell(state, legal)
        return min(legal, key=lambda e: state.players[e["seat"]].hexes[tuple(e["hex"])].archaea)

    def act_out_of_turn(
        self, state: State, offered: list[Event], rng: random.Random
    ) -> Event | None:
        return offered[0]  # pay a token off as soon as possible, as on its own turn (DV-8)

    def skips_forced(self) -> bool:
        return True  # every choice below is a pure function of the state and the events

    def bid(self, state: DeepVentsState, legal: list[Event]) -> Event:
        bids = [e for e in legal if e["type"] == "bid" and e["amount"] <= self.max_bid]
        return bids[0] if bids else legal[-1]  # the lowest allowed bid, else pass

    def hex_value(self, kind: HexType) -> float:
        return 2.0 if grows_well(kind) else 1.0

    def take(self, state: DeepVentsState, legal: list[Event]) -> Event:
        """The most valuable position, the first on a tie (as max would pick it, without a
        key function called per position)."""
        row, row_archaea, hex_value = state.row, state.row_archaea, self.hex_value
        best, best_value = legal[0], float("-inf")
        for event in legal:
            i = event["position"] - 1
            value = hex_value(row[i]) + 0.5 * row_archaea[i] - 0.6 * i
            if value > best_value:
                best, best_value = event, value
        return best

    def place(self, state: DeepVentsState, legal: list[Event]) -> Event:
        """The free cell touching most own hexes, the first in activation order on a tie."""
        cells, contacts = state.frontier(state.active)
        best = max(cells, key=contacts.__getitem__)
        i = cells.index(best)
        if len(legal) == len(cells) and legal[i]["hex"] == [best[0], best[1]]:
            return legal[i]  # the legal places, in the frontier's order (decision_actions)
        hexes = state.players[state.active].hexes
        touching = hexes.__contains__  # summed over a cell's neighbours in C, not a generator
        return max(legal, key=lambda e: sum(map(touching, neighbour_cells(tuple(e["hex"])))))

    def wants_trigger(self, state: DeepVentsState, tile: Tile) -> bool:
        last_turn = state.players[state.active].turns == state.edition.turns - 1
        return collects(tile.kind) and (tile.archaea >= 6 or last_turn)

    def activate(self, state: DeepVentsState, legal: list[Event]) -> Event:
        triggers = [e for e in legal if e["type"] == "trigger"]
        for event in triggers:
            if self.wants_trigger(state, _tile(state, event)):
                return event
        grows = [e for e in legal if e["type"] == "grow"]
        if len(grows) == 1:
            return grows[0]  # the common case, asked without a key
        if grows:
            # Gulper Eel: empty the fullest neighbour.
            hexes = state.players[state.active].hexes
            return max(grows, key=lambda e: hexes[tuple(e["from"])].archaea if "from" in e else 0)
        ends = [e for e in legal if e["type"] == "end"]
        if ends:
            return ends[0]
        return triggers[0]  # an Undersea Volcano at 5+ must trigger (DV-9)

    def shell(self, state: DeepVentsState, legal: list[Event]) -> Event:
        return legal[0]  # use a shell


class GrowerStrategy(Heuristic):
    name = "grower"
    description = "Drafts producers, grows everything, collects when hexes fill up; bids 1."
    max_bid = 1


class AttackerStrategy(Heuristic):
    name = "attacker"
    description = "Drafts attackers and triggers every affordable attack; bids up to 3."
    max_bid = 3

    def hex_value(self, kind: HexType) -> float:
        return 3.0 if attacks(kind) else super().hex_value(kind)

    def wants_trigger(self, state: DeepVentsState, tile: Tile) -> bool:
        return attacks(tile.kind) or super().wants_trigger(state, tile)


class TurtleStrategy(Heuristic):
    name = "turtle"
    description = "Drafts cheap shell makers, hoards shells, never bids above 0."
    max_bid = 0

    def hex_value(self, kind: HexType) -> float:
        return 3.0 if gives_shells(kind) else super().hex_value(kind)

    def take(self, state: DeepVentsState, legal: list[Event]) -> Event:
        cheap = [e for e in legal if e["position"] <= 3]
        return super().take(state, cheap or legal)

    def wants_trigger(self, state: DeepVentsState, tile: Tile) -> bool:
        return gives_shells(tile.kind) or super().wants_trigger(state, tile)


class LookaheadStrategy(GrowerStrategy):
    name = "lookahead"
    description = "Plays each row choice through its turn (greedy activations) and keeps the best."
    max_bid = 2

    def __init__(self) -> None:
        self.planned: tuple[int, int] | None = None

    def skips_forced(self) -> bool:
        return False  # even a forced take plans the placement

    def take(self, state: DeepVentsState, legal: list[Event]) -> Event:
        best, best_value = legal[0], float("-inf")
        for event in legal:
            trial = state.clone()
            trial.apply_action(event)
            cell = self._best_cell(trial)
            trial.apply_action({"type": "place", "seat": state.active, "hex": list(cell)})
            value = self._play_out_turn(trial, state.active)
            if value > best_value:
                best, best_value, self.planned = event, value, cell
        return best

    def place(self, state: DeepVentsState, legal: list[Event]) -> Event:
        for event in legal:
            if tuple(event["hex"]) == self.planned:
                return event
        return super().place(state, legal)

    def _best_cell(self, state: DeepVentsState) -> tuple[int, int]:
        hexes = state.players[state.active].hexes
        touching = hexes.__contains__
        cells = state.free_cells(state.active)
        return max(cells, key=lambda c: sum(map(touching, neighbour_cells(c))))

    def _play_out_turn(self, state: DeepVentsState, seat: int) -> float:
        """Greedy activations to the end of this turn; own score minus the best other."""
        greedy, rng = GrowerStrategy(), random.Random(0)  # the grower never draws from rng
        while state.phase != "over":
            # The decider's own events: out-of-turn payoffs (DV-8) are the other bots' call.
            legal = state.decision_actions()
            if state.phase == "activate" and any(e["type"] == "end" for e in legal):
                break
            state.apply_action(greedy.choose(state, legal, rng))
        others = [state.score(s) for s in range(len(state.players)) if s != seat]
        return state.score(seat) - max(others)


STRATEGIES = by_name(
    RandomStrategy, GrowerStrategy, AttackerStrategy, TurtleStrategy, LookaheadStrategy
)
