"""Deep Dive (`deep-dive`): the Game entry point the registry loads."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from engines.core.bots import montecarlo_for
from engines.core.errors import MalformedLogError, UnsupportedRulesetError
from engines.core.game import DemoTables, Event, Game, Ruleset, SeatOrder, State
from engines.core.schema import log_schema
from engines.core.schema_errors import FieldRules
from engines.deep_dive import describe
from engines.deep_dive.bots import STRATEGIES
from engines.deep_dive.edition import Edition, editions
from engines.deep_dive.events import FIELD_RULES, SETUP_SCHEMA, event_schemas
from engines.deep_dive.state import DeepDiveState


@cache
def _schema(game_id: str) -> dict[str, Any]:
    # One object for every log: schema.validate finds its compiled checks by identity.
    return log_schema(game_id, setup=SETUP_SCHEMA, events=event_schemas(), options={})


class DeepDive(Game):
    id = "deep-dive"
    title = "Deep Dive"
    min_players = 2
    max_players = 4
    default_ruleset = "standard"
    strategies = {**STRATEGIES, "montecarlo": montecarlo_for("deep-dive")}
    # Nothing to resample: an unopened shell's contents are a chance event drawn when it is
    # opened (DD-4), so each playout draws them afresh, like the dice.
    # The strongest bot alone: the montecarlo bot built on it won 0.35 of 400 mixed-table
    # games at 16 playouts an action, on a mix of the heuristics a fifth random 0.27 of 100;
    # reading the table with 32-1,024 playouts, 0.515 of 400 (benchmarks/bot_match.py).
    playout_pool = ("risk-aware",)
    # In a log's analysis each seat is read as any of the heuristics, steady or a fifth
    # random (engines/analysis/table_reading.py): risk-aware at every seat made the analysis
    # surer than the games bore out (benchmarks/calibration.py, issue 24).
    playout_reads_table = True
    reading_pool = ("surface-after-2", "surface-after-3", "risk-aware")
    reading_randomness = 0.2
    # Every Deep Dive decision is made on what all see (DD-1..5 hide nothing but the shells'
    # contents, which no seat knows).
    montecarlo_reads_table = True
    picture = "diver-table"
    demo_tables = DemoTables(games=24, seats=3)

    def decision_phase(self, state: State, actions: Sequence[Event]) -> str:
        return "surfacing"  # the only decision: surface or stay

    def rulesets(self) -> Mapping[str, Ruleset]:
        return {"standard": Ruleset(name="standard", edition="first", options={})}

    def editions(self) -> Mapping[str, Edition]:
        return editions()

    def new_setup(
        self,
        ruleset: Ruleset,
        players: int,
        rng: random.Random,
        fixed: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Nothing is dealt: the shells are drawn unseen during play (DD-1, DD-2)."""
        self.check_fixed_setup(ruleset, players, fixed)
        return {}

    def new_state(self, ruleset: Ruleset, players: int, setup: Mapping[str, Any]) -> DeepDiveState:
        if setup:
            raise MalformedLogError(
                f"deep-dive has no setup fields, got {sorted(setup)}", field="setup"
            )
        edition = editions()[ruleset.edition]
        if players not in edition.player_counts:
            raise UnsupportedRulesetError(
                f"edition {edition.name} has no pool for {players} players [DD-1]",
                field="players",
            )
        return DeepDiveState(edition, players)

    def seat_order(self, ruleset: Ruleset) -> SeatOrder:
        """Seat 0 starts the first round (DD-6), then turns pass clockwise."""
        return SeatOrder("turn order", "DD-6")

    def schema(self) -> dict[str, Any]:
        return _schema(self.id)

    def field_rules(self) -> FieldRules:
        return FIELD_RULES

    def describe(
        self, event: Event, snapshot: Mapping[str, Any], ruleset: Ruleset | None = None
    ) -> str:
        return describe.describe(event, snapshot)

    def moment(self, snapshot: Mapping[str, Any]) -> str:
        return f"round {snapshot.get('round')}"
