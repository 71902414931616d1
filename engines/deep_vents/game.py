"""Deep Vents: rulesets, setup and the entry point the registry loads."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import repeat
from types import MappingProxyType
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from engines.core.bots import montecarlo_for
from engines.core.errors import MalformedLogError, UnsupportedRulesetError
from engines.core.game import (
    BID,
    TURN_ORDER,
    DemoTables,
    DrawnInput,
    DrawnSetup,
    Event,
    Game,
    Ruleset,
    SeatColumn,
    SeatedField,
    SeatOrder,
    State,
    Strategy,
)
from engines.core.schema_errors import FieldRules
from engines.deep_vents import describe, row_draws, search
from engines.deep_vents.bots import STRATEGIES
from engines.deep_vents.edition import Edition, editions
from engines.deep_vents.schema import FIELD_RULES, GAME_ID, deep_vents_schema
from engines.deep_vents.state import DeepVentsState

STARTING_BID = "starting-bid"
STANDARD = "standard"


@cache
def _schema() -> dict[str, Any]:
    return deep_vents_schema()


@cache
def _rulesets() -> Mapping[str, Ruleset]:
    """The named rulesets, shared by every log: read only, so no caller can change what later
    logs resolve against (Game.ruleset copies the options it resolves)."""
    options = MappingProxyType({"row_size": 6})
    return MappingProxyType(
        {
            STARTING_BID: Ruleset(STARTING_BID, "first", options),
            STANDARD: Ruleset(STANDARD, "first", options),
        }
    )


# A game may be varied by subclassing (tests do), compiled too (engines.compiled).
@mypyc_attr(allow_interpreted_subclasses=True)
class DeepVents(Game):
    """Deep Vents for 2-4 players; the starting-bid variant is the default (DV-3)."""

    id = GAME_ID
    title = "Deep Vents"
    min_players = 2
    max_players = 4
    default_ruleset = STARTING_BID
    strategies: ClassVar[Mapping[str, type[Strategy]]] = {
        **STRATEGIES,
        "montecarlo": montecarlo_for(GAME_ID),
    }
    # The bots that are cheap enough (lookahead costs ~140 ms a playout against ~5 ms), mixed,
    # a fifth random. Measured (benchmarks/calibration.py, 6 games a table): turtle alone was
    # sure and wrong 14 times in 158 at human-like tables (skill 0.27, ECE 0.13), the mix
    # 0 in 88 (skill 0.51, ECE 0.034); at bot tables skill 0.78 against 0.68.
    playout_pool = ("turtle", "grower", "attacker")
    playout_randomness = 0.2
    # Each seat read from the log (engines/analysis/table_reading.py; issue 24, 16 games a
    # table, 2026-12-06): at bot tables the mix everywhere was less sure than the games bore
    # out (ECE 0.067); read, ECE 0.024 and skill 0.77 against 0.71, for about 6% more CPU.
    playout_reads_table = True
    picture = "vent-row"
    # The per-turn detail of the game's page: building them was a third of a verification's
    # facts (benchmarks/replay.py), and no statistics line or elimination reads them (the
    # hex lines count what was offered from each take's `offered`, not the offer's row, and
    # the grows, triggers and attacks summed per seat and hex type in `hex-totals`).
    detail_facts = frozenset(
        {
            "offer",
            "place",
            "grow",
            "trigger",
            "attack",
            "turn-end",
            "passive",
            "shortfall",
            "shell-destroyed",
            "payoff",
        }
    )
    seat_columns = (SeatColumn(TURN_ORDER, "Turn order"), SeatColumn(BID, "Bid"))
    # Each handler proves its event valid by the schema or asks for the check
    # (DeepVentsState._unproven): replay leaves the events out of the schema's first pass.
    checks_event_shapes = True
    # The quick bots only (not lookahead), so the demo and the tests built on it load in
    # seconds.
    demo_tables = DemoTables(30, 4, STARTING_BID, ("grower", "attacker", "turtle", "random"))

    def resample(self, state: State, seat: int, rng: random.Random) -> DeepVentsState:
        assert isinstance(state, DeepVentsState)
        return search.resample(state, rng)

    def decision_phase(self, state: State, actions: Sequence[Event]) -> str:
        assert isinstance(state, DeepVentsState)
        return search.phase(state)

    def rulesets(self) -> Mapping[str, Ruleset]:
        return _rulesets()  # built once: every log verified resolves its ruleset against them

    def editions(self) -> Mapping[str, Edition]:
        return editions()

    def check_option(self, key: str, value: Any, default: Any) -> None:
        super().check_option(key, value, default)
        if key == "row_size" and value not in (5, 6):
            raise UnsupportedRulesetError(
                f"row_size is 6 or 5, not {value} [DV-2]", field="ruleset.options.row_size"
            )

    def new_setup(
        self,
        ruleset: Ruleset,
        players: int,
        rng: random.Random,
        fixed: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The stack shuffled (DV-1) and the seat that opens the bidding (starting-bid) or
        plays first (standard) drawn, unless `fixed` gives that seat (DV-3)."""
        self.check_fixed_setup(ruleset, players, fixed)
        edition = editions()[ruleset.edition]
        stack = [hex_id for hex_id, n in sorted(edition.stack_counts.items()) for _ in range(n)]
        rng.shuffle(stack)
        (seat_field,) = self.seated_setup_fields(ruleset)
        seat = (fixed or {}).get(seat_field)
        if seat is None:
            seat = rng.randrange(players)
        return {"stack": stack, seat_field: seat}

    def seated_setup_fields(self, ruleset: Ruleset) -> Mapping[str, SeatedField]:
        if ruleset.name == STARTING_BID:
            return {"opening_bidder": SeatedField("opening the bidding", "DV-3")}
        return {"first_player": SeatedField("playing first", "DV-3")}

    def drawn_setup(self, ruleset: Ruleset) -> DrawnSetup:
        """The seat that opens the bidding or plays first (DV-3); the hexes of the row are
        entered one by one as they are drawn, so the stack starts empty."""
        (seat_field,) = self.seated_setup_fields(ruleset)
        bidding = seat_field == "opening_bidder"
        label = "Seat drawn to open the bidding (DV-3)" if bidding else "First player"
        hint = "The hexes of the row are entered one by one as they are drawn."
        return DrawnSetup((DrawnInput(seat_field, "seat", label),), hint, {"stack": []})

    def seat_summary(self, state: State) -> dict[int, dict[str, int]]:
        """Position in turn order (1 = first) and highest bid of each seat (DV-3)."""
        assert isinstance(state, DeepVentsState)
        summary: dict[int, dict[str, int]] = {}
        for position, seat in enumerate(state.order, start=1):
            summary.setdefault(seat, {})[TURN_ORDER] = position
        for bid in state.bids:
            if "amount" in bid:
                values = summary.setdefault(bid["seat"], {})
                values[BID] = max(bid["amount"], values.get(BID, bid["amount"]))
        return summary

    def new_state(self, ruleset: Ruleset, players: int, setup: Mapping[str, Any]) -> DeepVentsState:
        edition = editions()[ruleset.edition]
        stack = _check_stack(edition, setup.get("stack"), ruleset.options["row_size"])
        for key in ("opening_bidder", "first_player"):
            seat = setup.get(key)
            if seat is not None and (type(seat) is not int or not 0 <= seat < players):
                raise MalformedLogError(
                    f"no seat {seat!r} at a table of {players}", field=f"setup.{key}"
                )
        if ruleset.name == STARTING_BID:
            if "first_player" in setup:
                raise MalformedLogError(
                    "the starting-bid ruleset decides the first player by bidding; "
                    "give opening_bidder instead",
                    field="setup.first_player",
                    rule="DV-3",
                )
            if "opening_bidder" not in setup:
                raise MalformedLogError(
                    "the starting-bid ruleset needs the seat drawn to open the bidding",
                    field="setup.opening_bidder",
                    rule="DV-3",
                )
            return DeepVentsState(
                edition,
                ruleset.options["row_size"],
                players,
                stack,
                opening_bidder=setup["opening_bidder"],
            )
        if "opening_bidder" in setup:
            raise MalformedLogError(
                "the standard ruleset has no bidding; give first_player instead",
                field="setup.opening_bidder",
            )
        return DeepVentsState(
            edition,
            ruleset.options["row_size"],
            players,
            stack,
            first_player=setup.get("first_player", 0),
        )

    def schema(self) -> dict[str, Any]:
        return _schema()

    def seat_order(self, ruleset: Ruleset) -> SeatOrder:
        """Starting bid (DV-3): the bid decides turn order, but the seats still order the
        bidding: the opener must bid first (0 allowed) and the last bidder sees every bid
        before answering. A tournament seats each table in bidding order and the opener at
        seat 0; the rulebook leaves the method of choosing the opener to the players ("pick
        a method to randomly decide"), so the seating's draw is that method. Standard: seat
        0 goes first and play passes clockwise (DV-16)."""
        if ruleset.name == STARTING_BID:
            return SeatOrder("bidding order", "DV-3", {"opening_bidder": 0})
        return SeatOrder("turn order", "DV-16", {"first_player": 0})

    def field_rules(self) -> FieldRules:
        return FIELD_RULES

    def eliminations(self, facts: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
        """DV-8: two shortfall tokens at the end of a turn knock a player out."""
        return [(fact["seat"], fact["turn"]) for fact in facts if fact["type"] == "eliminated"]

    def _edition(self, ruleset: Ruleset | None) -> Edition:
        return editions()[(ruleset or self.ruleset()).edition]

    def describe(
        self, event: Event, snapshot: Mapping[str, Any], ruleset: Ruleset | None = None
    ) -> str:
        return describe.describe(self._edition(ruleset), event, snapshot)

    def moment(self, snapshot: Mapping[str, Any]) -> str:
        return describe.moment(snapshot)

    def describe_choice(
        self, event: Event, snapshot: Mapping[str, Any], ruleset: Ruleset | None = None
    ) -> dict[str, Any]:
        return describe.describe_choice(self._edition(ruleset), event, snapshot)

    def describe_prompt(
        self, snapshot: Mapping[str, Any], waiting_for: str, ruleset: Ruleset | None = None
    ) -> str:
        asked = describe.prompt(self._edition(ruleset), snapshot)
        return asked or super().describe_prompt(snapshot, waiting_for, ruleset)

    def glossary(self, ruleset: Ruleset | None = None) -> dict[str, Any]:
        return describe.glossary(self._edition(ruleset))

    def setup_draw(
        self,
        ruleset: Ruleset,
        setup: Mapping[str, Any],
        recorded_events: int,
        snapshot: Mapping[str, Any] | None,
    ) -> dict[str, Any] | None:
        """DV-2: the hexes of the row are drawn one at a time at a real table."""
        row_size = ruleset.options["row_size"]
        edition = self._edition(ruleset)
        if snapshot is None:
            return row_draws.opening_row_draw(
                edition, row_size, setup.get("stack"), recorded_events
            )
        return row_draws.row_draw(edition, row_size, setup["stack"], snapshot)


def _check_stack(edition: Edition, stack: Any, row_size: int) -> list[Any]:
    """The recorded stack must be drawable from the edition's hexes (DV-1, DV-2)."""
    if not isinstance(stack, list) or not all(map(isinstance, stack, repeat(str))):
        raise MalformedLogError("setup.stack is a list of hex ids", field="setup.stack")
    if len(stack) == edition.stack_size and sorted(stack) == edition.full_stack:
        return list(map(edition.hexes.__getitem__, stack))  # the whole stack: nothing to say
    counts = edition.stack_counts
    for hex_id, n in Counter(stack).items():
        if hex_id not in counts:
            raise MalformedLogError(
                f"{hex_id!r} is not a hex of the shuffled stack; known: {', '.join(counts)}",
                field="setup.stack",
                rule="DV-1",
            )
        if n > counts[hex_id]:
            raise MalformedLogError(
                f"setup.stack holds {n} {hex_id} hexes; the game has {counts[hex_id]}",
                field="setup.stack",
                rule="DV-1",
            )
    if len(stack) < row_size:
        raise MalformedLogError(
            f"setup.stack lists {len(stack)} hexes; the first row alone shows {row_size}",
            field="setup.stack",
            rule="DV-2",
        )
    return list(map(edition.hexes.__getitem__, stack))
