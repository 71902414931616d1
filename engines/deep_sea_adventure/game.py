"""Deep Sea Adventure and Deep Sea Adventure Boost: the Game entry points."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core.bots import montecarlo_for
from engines.core.errors import MalformedLogError, UnsupportedRulesetError
from engines.core.game import (
    DemoTables,
    DrawnInput,
    DrawnSetup,
    Event,
    Game,
    Ruleset,
    SeatOrder,
    State,
)
from engines.core.schema_errors import FieldRules
from engines.deep_sea_adventure import bots, describe, search
from engines.deep_sea_adventure.edition import Edition, editions
from engines.deep_sea_adventure.schema import (
    BOOST_FIELD_RULES,
    FIELD_RULES,
    boost_schema,
    dsa_schema,
)
from engines.deep_sea_adventure.state import DEEPEST_DROWNED, LAST_RETURNED, DeepSeaState

NEXT_FIRST_PLAYER = (LAST_RETURNED, DEEPEST_DROWNED)


class DeepSeaAdventure(Game):
    id = "deep-sea-adventure"
    title = "Deep Sea Adventure"
    min_players = 2
    max_players = 6
    default_ruleset = "standard"
    strategies = {**bots.DSA_STRATEGIES, "montecarlo": montecarlo_for("deep-sea-adventure")}
    # Measured (benchmarks/calibration.py): one bot everywhere made the analysis too sure of
    # itself at mixed and human-like tables; a mix of the heuristics, a fifth random, is not.
    playout_pool = ("grab-2-then-turn", "grab-3-then-turn", "air-aware")
    playout_randomness = 0.2
    # Measured too (issue 24): the mix read seat by seat from the log raised the skill.
    playout_reads_table = True
    picture = "chip-path"

    def resample(self, state: State, seat: int, rng: random.Random) -> DeepSeaState:
        assert isinstance(state, DeepSeaState)
        return search.resample(state, seat, rng)

    def decision_phase(self, state: State, actions: Sequence[Event]) -> str:
        return search.phase(actions)

    def search_actions(self, state: State, actions: list[Event]) -> list[Event]:
        assert isinstance(state, DeepSeaState)
        return search.search_actions(state, actions)

    def rulesets(self) -> Mapping[str, Ruleset]:
        return {
            "standard": Ruleset("standard", "first", {"next_first_player": LAST_RETURNED}),
        }

    def editions(self) -> Mapping[str, Edition]:
        return editions()

    def check_option(self, key: str, value: Any, default: Any) -> None:
        super().check_option(key, value, default)
        if key == "next_first_player" and value not in NEXT_FIRST_PLAYER:
            raise UnsupportedRulesetError(
                f"option next_first_player is one of {', '.join(NEXT_FIRST_PLAYER)}, not {value!r}",
                field="ruleset.options.next_first_player",
                rule="DSA-6",
            )

    def new_setup(
        self,
        ruleset: Ruleset,
        players: int,
        rng: random.Random,
        fixed: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The chips dealt along the path (DSA-1); the player order is the log's seat order,
        so a seating fixes nothing more."""
        self.check_fixed_setup(ruleset, players, fixed)
        return {"chips": self.editions()[ruleset.edition].deal(rng)}

    def new_state(self, ruleset: Ruleset, players: int, setup: Mapping[str, Any]) -> DeepSeaState:
        edition = self.editions()[ruleset.edition]
        chips = setup.get("chips")
        if not isinstance(chips, list):
            raise MalformedLogError("the setup lists the dealt chip values", field="setup.chips")
        return DeepSeaState(
            edition,
            players,
            edition.chips_from_setup(chips),
            **self.state_options(ruleset),
        )

    def state_options(self, ruleset: Ruleset) -> dict[str, Any]:
        return {"next_first_player": ruleset.options["next_first_player"]}

    def seat_order(self, ruleset: Ruleset) -> SeatOrder:
        """Seat 0 starts the first dive (DSA-8), then turns pass clockwise."""
        return SeatOrder("turn order", "DSA-8")

    def schema(self) -> dict[str, Any]:
        return dsa_schema(self.id)

    def field_rules(self) -> FieldRules:
        return FIELD_RULES

    def describe(
        self, event: Event, snapshot: Mapping[str, Any], ruleset: Ruleset | None = None
    ) -> str:
        return describe.describe(event, snapshot)

    def moment(self, snapshot: Mapping[str, Any]) -> str:
        return describe.moment(snapshot)

    def glossary(self, ruleset: Ruleset | None = None) -> dict[str, Any]:
        return describe.glossary(self.editions()[(ruleset or self.ruleset()).edition])

    def drawn_setup(self, ruleset: Ruleset) -> DrawnSetup:
        """The chip values along the path as they lie, with how many chips each level has."""
        levels = self.editions()[ruleset.edition].levels
        counts = ", ".join(f"level {i}: {len(values)} chips" for i, values in enumerate(levels, 1))
        label = "Chip values along the path, from the submarine outwards"
        chips = DrawnInput("chips", "number-list", label, "e.g. 0, 3, 1, 2, ...")
        hint = f"{counts}; turn the chips over at the end if they were dealt face down."
        return DrawnSetup((chips,), hint)


class DeepSeaAdventureBoost(DeepSeaAdventure):
    id = "deep-sea-adventure-boost"
    title = "Deep Sea Adventure Boost"
    strategies = {
        **bots.BOOST_STRATEGIES,
        "montecarlo": montecarlo_for("deep-sea-adventure-boost"),
    }
    playout_pool = (
        "grab-2-then-turn", "grab-3-then-turn", "air-aware", "air-aware-boost", "always-boost",
    )  # fmt: skip
    demo_tables = DemoTables(games=18, seats=4)

    def rulesets(self) -> Mapping[str, Ruleset]:
        # B-4: both rules on by default; each switchable by option or by name.
        def boost_ruleset(name: str, choose_two: bool, boost: bool) -> Ruleset:
            options = {"next_first_player": LAST_RETURNED, "choose_two": choose_two, "boost": boost}
            return Ruleset(name, "boost", options)

        return {
            "standard": boost_ruleset("standard", True, True),
            "choose-two-only": boost_ruleset("choose-two-only", True, False),
            "boost-only": boost_ruleset("boost-only", False, True),
            "original-dice": boost_ruleset("original-dice", False, False),
        }

    def editions(self) -> Mapping[str, Edition]:
        return {name: e for name, e in editions().items() if e.boost_dice is not None}

    def ruleset(self, spec: Mapping[str, Any] | None = None) -> Ruleset:
        spec = dict(spec or {})
        options = dict(spec.get("options") or {})
        asked = options.pop("expansion_dice", False) or "expansion" in str(spec.get("name", ""))
        if asked:
            raise UnsupportedRulesetError(
                "the expansion-dice variant is not defined by the source (its dice are not "
                "described), so it cannot be played or verified",
                field="ruleset",
                rule="B-4",
            )
        spec["options"] = options
        return super().ruleset(spec)

    def state_options(self, ruleset: Ruleset) -> dict[str, Any]:
        options = ruleset.options
        return {
            "next_first_player": options["next_first_player"],
            "choose_two": options["choose_two"],
            "boost": options["boost"],
        }

    def schema(self) -> dict[str, Any]:
        return boost_schema(self.id)

    def field_rules(self) -> FieldRules:
        return BOOST_FIELD_RULES
