"""The interface every game engine implements (after OpenSpiel's Game/State).

A `Game` describes one game: its rulesets, how to deal a random setup and how
to start a `State` from a recorded setup. A `State` knows whose decision is
next, the legal actions, applies one action at a time and reports the
`Outcome` once terminal. Actions are plain JSON-able dicts: exactly the events
of the log format, so an engine-written log and a hand-written one replay
through the same code.
"""

from __future__ import annotations

import copy
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.core.describe import describe_generic
from engines.core.errors import (
    IllegalEventError,
    LogError,
    MalformedLogError,
    UnsupportedRulesetError,
    seat_label,
)
from engines.core.schema_errors import FieldRules

Event = dict[str, Any]

# "seat 2 to roll the colour die (a 'dive' event)" -> "roll the colour die"
_SEAT_TO = re.compile(r"^seat \d+ to ")
_EVENT_NAME = re.compile(r"\s*\(an? '\w+' event\)$")


@dataclass(frozen=True)
class SeatedField:
    """A setup field naming a seat that a seating may decide (Game.seated_setup_fields):
    what that seat does ("opens the bidding") and the ruling that says so."""

    does: str
    rule: str | None = None


@dataclass(frozen=True)
class DrawnInput:
    """One input of the Record page's "Enter as drawn": a setup field typed in from the
    table. `kind` says how the page asks for it: "seat" (one of the table's seats, which a
    seating may already fix) or "number-list" (numbers separated by commas or spaces)."""

    key: str
    kind: str
    label: str
    placeholder: str = ""


@dataclass(frozen=True)
class DrawnSetup:
    """What "Enter as drawn" asks for (Game.drawn_setup): the inputs, a hint under them,
    and the setup entries given before any input (`start`: a stack drawn one by one later
    starts empty)."""

    inputs: tuple[DrawnInput, ...] = ()
    hint: str = "Nothing is dealt before play."
    start: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        inputs = [vars(drawn).copy() for drawn in self.inputs]
        return {"inputs": inputs, "hint": self.hint, "start": dict(self.start)}


# The per-seat summary's keys every page reads alike (Game.seat_summary): kept short, as
# they are stored with every seat (issue 25).
TURN_ORDER = "turn"
BID = "bid"


@dataclass(frozen=True)
class SeatColumn:
    """A column of a game's per-seat summary: its key in the summary and its heading."""

    key: str
    label: str


@dataclass(frozen=True)
class DemoTables:
    """A game's club nights in the site's demo data (`manage.py load_demo`): games played,
    players at a table, the ruleset (None: the game's default) and the bots the players
    choose among (None: every bot drawn at random)."""

    games: int
    seats: int
    ruleset: str | None = None
    bots: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Ruleset:
    """A named ruleset with its edition and every option resolved."""

    name: str
    edition: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "edition": self.edition, "options": dict(self.options)}


@dataclass(frozen=True)
class SeatOrder:
    """What the seat numbers of a table mean to a tournament seating them.

    Seat 0 is the first position, then clockwise by rising seat number (DV-16): a
    tournament that balances positions over an event seats each table in this order and
    gives a recording of it `setup` (the entries that make seat 0 the first)."""

    meaning: str  # "bidding order": what position 1, 2, ... orders
    rule: str  # the ruling that decides it
    setup: Mapping[str, Any] = field(default_factory=dict)

    @property
    def opens_bidding(self) -> bool:
        return "opening_bidder" in self.setup


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. Seats are indexes into the log's players."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]  # 1 = best; tied seats share a rank
    termination: str = "normal"

    def to_result(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners)}


class State(ABC):
    """One position of a game, mutated in place by `apply_action`."""

    # When not None, the engine appends the per-turn facts statistics need.
    facts: list[dict[str, Any]] | None = None
    # False when whoever asked for facts reads none of the game's `detail_facts` (a
    # verification: statistics lines and eliminations): the engine may skip building them.
    # Left as it is for a game that has none (replay.finish).
    detail_facts: bool = True
    # The ruling that says when the game ends (cited when events follow the end).
    end_rule: ClassVar[str | None] = None
    # Set by replay for a game whose state proves its events valid by the schema as it
    # applies them (Game.checks_event_shapes): an event it cannot prove so calls
    # `check_log()` once, which checks the whole log against the schema (raising its
    # error) before the event is applied. None when the schema checked the log up front.
    check_log: Callable[[], None] | None = None

    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat whose decision (or roll, at a chance node) comes next."""

    def is_chance_node(self) -> bool:
        """True when the next event is a chance outcome (dice, draws)."""
        return False

    def chance_outcomes(self) -> list[tuple[Event, float]]:
        """The possible chance events and their probabilities."""
        raise NotImplementedError

    @abstractmethod
    def legal_actions(self) -> list[Event]:
        """Every event that may come next: the current seat's decision (OpenSpiel's
        legal_actions), then `out_of_turn_actions()`."""

    def decision_actions(self) -> list[Event]:
        """The current seat's own legal events, those a bot chooses among: legal_actions()
        less the other seats' out-of-turn ones. Games may answer it without building those
        (playouts ask it at every step)."""
        seat = self.current_seat()
        return [e for e in self.legal_actions() if e.get("seat") == seat]

    def out_of_turn_actions(self) -> list[Event]:
        """Events other seats may make before the current decision (DV-8 payoffs); each
        carries its own seat. Most games have none."""
        return []

    @abstractmethod
    def apply_action(self, event: Event) -> None:
        """Apply one event or raise IllegalEventError (without its index)."""

    def forced_step(self) -> int:
        """Apply the pending decision if it has exactly one legal event and no seat may act
        out of turn, as apply_action(that event) would, and the ones after it while they are
        forced and the same seat decides; answer how many were applied (0: nothing changed).
        Playouts call it so forced moves cost no event, no bot and no check; a game answers
        it for its common forced moves only, without recording facts."""
        return 0

    @abstractmethod
    def is_terminal(self) -> bool: ...

    def event_after_the_end(self, index: int, event: Mapping[str, Any]) -> IllegalEventError:
        """The error for an event that follows the game's end."""
        return IllegalEventError(
            "the game is already over; nothing may follow its end",
            index=index,
            seat=event.get("seat"),
            rule=self.end_rule,
        )

    def apply_events(
        self,
        events: Sequence[Event],
        on_event: Callable[[int, State], None] | None = None,
    ) -> None:
        """Apply events in order; the first bad one raises a LogError naming its index and
        seat. `on_event(index, state)` is called after each. A game may replace this loop
        with one of its own that does the same, faster (replay runs it for every event)."""
        is_terminal, apply_action = self.is_terminal, self.apply_action
        for index, event in enumerate(events):
            if is_terminal():
                raise self.event_after_the_end(index, event)
            try:
                apply_action(event)
            except LogError as exc:
                raise exc.at(index, event.get("seat")) from None
            if on_event is not None:
                on_event(index, self)

    def waiting_for(self) -> str:
        """The pending decision in words: "seat 2 to decide on a shell against 3 damage"."""
        seat = self.current_seat()
        return "nothing: the game is over" if seat is None else f"{seat_label(seat)} to act"

    def must(self) -> str:
        """The pending decision as an obligation: "seat 2 must decide on a shell ..."."""
        return self.waiting_for().replace(" to ", " must ", 1)

    def pending_rule(self) -> str | None:
        """The ruling that governs the pending decision (errors about it cite it)."""
        return None

    def recording_extras(self) -> dict[str, Any]:
        """Optional events a recording page may offer besides legal_actions() (DSA-5
        stacking orders); keys are merged into the page's answer."""
        return {}

    @abstractmethod
    def outcome(self) -> Outcome:
        """The outcome of a terminal state."""

    def clone(self) -> State:
        """An independent copy (playouts and bots look ahead on it); facts are not copied
        and an `edition` (immutable rules data) is shared. Games replace this with a cheaper
        copy where a deepcopy costs as much as a playout."""
        edition = getattr(self, "edition", None)
        memo = {} if edition is None else {id(edition): edition}
        facts, self.facts = self.facts, None
        try:
            return copy.deepcopy(self, memo)
        finally:
            self.facts = facts

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """A JSON-able picture of everything on the table (for replay viewers)."""


class Strategy(ABC):
    """A bot. Subclasses set `name` and choose among the legal actions."""

    name: ClassVar[str]
    # How pages and default player names call the bot: "Surface-after-3 bot" for
    # "surface-after-3", unless a subclass names itself better.
    title: ClassVar[str]
    description: ClassVar[str] = ""
    # False for a bot too slow for line-ups drawn at random (it plays only when named).
    drawn_at_random: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__ and "title" not in cls.__dict__:
            cls.title = f"{cls.name[:1].upper()}{cls.name[1:]} bot"

    @abstractmethod
    def choose(self, state: State, legal: list[Event], rng: random.Random) -> Event:
        """One of `legal`: the events of this bot's seat, which holds the decision."""

    def act_out_of_turn(
        self, state: State, offered: list[Event], rng: random.Random
    ) -> Event | None:
        """One of `offered` (this seat's out-of-turn events) to make now, or None to wait."""
        return None

    def observe(self, state: State, seat: int, event: Event) -> None:
        """Another seat's decision `event`, about to be applied to `state` (bot games,
        engines.core.simulate.play_out, tell it to the bots that override this; playouts do
        not). Every seat sees the decisions; a bot must read no more of `state` than its
        own seat sees."""
        return None  # most bots do not read the others

    def skips_forced(self) -> bool:
        """True when this bot, offered one legal event, plays it without drawing from the
        generator or changing itself, so a playout may apply it unasked (State.forced_step)
        and play on exactly as if it had asked. A bot answers it alike all game."""
        return False


class Game(ABC):
    """A game's rules entry point; one per package under engines/."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_ruleset: ClassVar[str]
    strategies: ClassVar[Mapping[str, type[Strategy]]]
    # The table size a tournament seats as often as it can (its pods); other sizes within
    # min_players..max_players only where the player count needs them.
    tournament_table_size: ClassVar[int] = 4
    # What every seat of a Monte Carlo playout plays (engines.analysis): one of these bots,
    # drawn per seat and playout, that plays a random legal event `playout_randomness` of
    # the time. A table of unknown players is stood in for by a mix, not by one bot.
    playout_pool: ClassVar[tuple[str, ...]] = ()
    playout_randomness: ClassVar[float] = 0.0
    # In a log's analysis, each seat's draw from the pool weighted by how it played so far
    # (engines/analysis/table_reading.py); switched on where benchmarks/calibration.py
    # measured it.
    playout_reads_table: ClassVar[bool] = False
    # The bots a seat may be read as, steady or `reading_randomness` of its moves at random,
    # where they differ from the playout pool and its randomness (empty, None: the same).
    # A game whose playouts without a history seat its strongest bot alone (the montecarlo
    # bot, the turn-back advisor) can still read a log's seats as any of its heuristics.
    reading_pool: ClassVar[tuple[str, ...]] = ()
    reading_randomness: ClassVar[float | None] = None
    # The montecarlo bot reads the other seats the same way from the decisions it saw them
    # make in the game so far (engines/analysis/strategy.py), where benchmarks/bot_match.py
    # measured it and a seat's decisions can be read from what every seat sees.
    montecarlo_reads_table: ClassVar[bool] = False
    # The kind of picture the pages draw of a snapshot (games/static/games/pictures.js);
    # "" draws the snapshot as it is.
    picture: ClassVar[str] = ""
    # The columns of `seat_summary`, in the order pages show them; none for a game whose
    # seats have nothing to summarise beyond score and rank.
    seat_columns: ClassVar[tuple[SeatColumn, ...]] = ()
    demo_tables: ClassVar[DemoTables] = DemoTables(games=24, seats=4)
    # True when the state's own checks of an event, passed, prove it valid by the schema's
    # event items (keys, types, ranges), and it calls State.check_log where they do not:
    # replay then checks the events against the schema only when something refuses the log,
    # so that the schema's error still comes first (a second pass over every event was a
    # tenth of a Deep Vents verification, issue 25).
    checks_event_shapes: ClassVar[bool] = False

    @abstractmethod
    def rulesets(self) -> Mapping[str, Ruleset]:
        """The named rulesets with their default options."""

    def ruleset(self, spec: Mapping[str, Any] | None = None) -> Ruleset:
        """Resolve a log's `ruleset` object against the named rulesets."""
        spec = spec or {}
        name = spec.get("name", self.default_ruleset)
        known = self.rulesets()
        if name not in known:
            raise UnsupportedRulesetError(
                f"unknown ruleset {name!r} for {self.id}; known: {', '.join(sorted(known))}",
                field="ruleset.name",
            )
        base = known[name]
        edition = spec.get("edition", base.edition)
        if edition not in self.editions():
            raise UnsupportedRulesetError(
                f"unknown edition {edition!r}; known: {', '.join(sorted(self.editions()))}",
                field="ruleset.edition",
            )
        options = dict(base.options)
        for key, value in (spec.get("options") or {}).items():
            if key not in options:
                raise UnsupportedRulesetError(
                    f"unknown option {key!r}; known: {', '.join(sorted(options)) or 'none'}",
                    field=f"ruleset.options.{key}",
                )
            self.check_option(key, value, options[key])
            options[key] = value
        return Ruleset(name=name, edition=edition, options=options)

    def editions(self) -> Mapping[str, Any]:
        """Edition data by name (loaded from the game's declarative data file)."""
        return {"first": None}

    def check_option(self, key: str, value: Any, default: Any) -> None:
        """Raise UnsupportedRulesetError when an option's value is not allowed.

        Games with enumerated option values extend this check.
        """
        if type(value) is not type(default):
            raise UnsupportedRulesetError(
                f"option {key!r} takes a {type(default).__name__}, not {value!r}",
                field=f"ruleset.options.{key}",
            )

    @abstractmethod
    def new_setup(
        self,
        ruleset: Ruleset,
        players: int,
        rng: random.Random,
        fixed: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Deal a random setup; every chance outcome of the setup is in it.

        `fixed`: setup fields decided before the deal (a tournament seating draws the
        opening bidder when it seats the table, DV-3), kept as given; only the rest is
        drawn. Only the fields of `seated_setup_fields` may be fixed (check_fixed_setup).
        """

    def seated_setup_fields(self, ruleset: Ruleset) -> Mapping[str, SeatedField]:
        """The setup fields that name a seat and that a seating may decide before the deal,
        with what that seat does and the ruling; none unless the game has such a field."""
        return {}

    def drawn_setup(self, ruleset: Ruleset) -> DrawnSetup:
        """What the Record page asks for when a setup is entered as drawn at the table;
        by default nothing is dealt before play."""
        return DrawnSetup()

    def seat_summary(self, state: State) -> dict[int, dict[str, int]]:
        """Per seat of a finished game, its values of `seat_columns` (after OpenSpiel's
        per-player returns): seats without any are left out."""
        return {}

    def check_fixed_setup(
        self, ruleset: Ruleset, players: int, fixed: Mapping[str, Any] | None
    ) -> None:
        """Raise MalformedLogError unless every field of `fixed` is one a seating decides
        for this ruleset and names a seat of the table."""
        seated = self.seated_setup_fields(ruleset)
        for key, seat in (fixed or {}).items():
            if key not in seated:
                known = ", ".join(sorted(seated)) or "none"
                raise MalformedLogError(
                    f"a seating cannot decide {key!r} in {self.id} ({ruleset.name}); "
                    f"it decides: {known}",
                    field=f"setup.{key}",
                )
            if type(seat) is not int or not 0 <= seat < players:
                raise MalformedLogError(
                    f"no seat {seat!r} at a table of {players}",
                    field=f"setup.{key}",
                    rule=seated[key].rule,
                )

    def setup_contradiction(
        self,
        ruleset: Ruleset,
        setup: Mapping[str, Any],
        fixed: Mapping[str, Any],
        names: Sequence[str],
    ) -> MalformedLogError | None:
        """Where `setup` disagrees with what the seating fixed (`fixed`), the error naming
        the field, both players and the ruling; None when it agrees."""
        seated = self.seated_setup_fields(ruleset)

        def who(seat: Any) -> str:
            in_range = type(seat) is int and 0 <= seat < len(names)
            return names[seat] if in_range else f"seat {seat!r}"

        for key, wanted in fixed.items():
            given = setup.get(key)
            if given == wanted:
                continue
            what = seated.get(key, SeatedField(f"as {key}"))
            seating = f"the table's seating has {who(wanted)} {what.does}"
            return MalformedLogError(
                f"{seating}; this setup names no one"
                if given is None
                else f"{seating}, not {who(given)}",
                field=f"setup.{key}",
                rule=what.rule,
            )
        return None

    @abstractmethod
    def new_state(self, ruleset: Ruleset, players: int, setup: Mapping[str, Any]) -> State:
        """Start a game from a recorded setup (raises MalformedLogError if impossible)."""

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of this game's logs (envelope plus its events)."""
        raise NotImplementedError

    # --- describing, after OpenSpiel's action_to_string and python-chess's san ---------

    def describe(
        self, event: Event, snapshot: Mapping[str, Any], ruleset: Ruleset | None = None
    ) -> str:
        """An event in words, read against the snapshot taken just before it (the choice
        labels of the recording page, the steps of the replay viewer)."""
        return describe_generic(event, snapshot)

    def moment(self, snapshot: Mapping[str, Any]) -> str:
        """When in the game the snapshot stands, in the game's own terms ("turn 7", "dive 2,
        turn 5"), for telling an event to someone who played it; "" when the game has none."""
        return ""

    def describe_choice(
        self, event: Event, snapshot: Mapping[str, Any], ruleset: Ruleset | None = None
    ) -> dict[str, Any]:
        """A choice as the Record page offers it: {"label"} and, for a game whose picture
        draws what the choice is about, {"target"} (clicking it there makes the choice)."""
        return {"label": self.describe(event, snapshot, ruleset)}

    def describe_prompt(
        self, snapshot: Mapping[str, Any], waiting_for: str, ruleset: Ruleset | None = None
    ) -> str:
        """What the seat to act is asked, without the seat ("roll the colour die"), for a
        banner that names the player."""
        return _EVENT_NAME.sub("", _SEAT_TO.sub("", waiting_for))

    def glossary(self, ruleset: Ruleset | None = None) -> dict[str, Any]:
        """Names and numbers the state pictures need beyond the snapshot (hex names...)."""
        return {}

    def setup_draw(
        self,
        ruleset: Ruleset,
        setup: Mapping[str, Any],
        recorded_events: int,
        snapshot: Mapping[str, Any] | None,
    ) -> dict[str, Any] | None:
        """Recording at a table: a chance outcome of the setup to enter now, before the
        next event (`snapshot` is None before the game can start). Answers
        {"waiting_for", "drawn", "choices": [{"draw", "label"}]}, or None."""
        return None

    def seat_order(self, ruleset: Ruleset) -> SeatOrder:
        """What seat numbers mean at this game's table: by default seat 0 plays first and
        turns pass clockwise (rising seat numbers), so a seat is a turn-order position."""
        return SeatOrder("turn order", "")

    # The fact types only viewers read (a game's page, the API): replay(detail_facts=False)
    # may leave them out. Statistics lines and eliminations never read them (tests/stats
    # holds the lines equal either way).
    detail_facts: ClassVar[frozenset[str]] = frozenset()

    def eliminations(self, facts: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
        """(seat, turns it completed) of each player knocked out, read from a replay's facts
        (tournament standings rank by them); a game without eliminations has none."""
        return []

    def field_rules(self) -> FieldRules:
        """Event field -> what it holds and its ruling, for schema errors a scorekeeper reads."""
        return {}

    # --- searching, after OpenSpiel's resample_from_infostate ------------------------------

    def resample(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy of `state` in which what `seat` cannot see is drawn afresh, consistently
        with everything `seat` has seen (a playout must not peek). By default nothing is
        hidden: unseen draws are chance events that the playout rolls anyway."""
        return state.clone()

    def playout_strategy(self) -> type[Strategy]:
        """The bot every seat of an analysis playout plays (see `playout_pool`)."""
        from engines.core.bots import mixed_strategy  # bots build on this module

        pool = [self.strategies[name] for name in self.playout_pool]
        return mixed_strategy(pool, self.playout_randomness)

    def decision_phase(self, state: State, actions: Sequence[Event]) -> str:
        """The kind of decision `actions` offer, in words (costs by phase, player pages)."""
        return "deciding"

    def search_actions(self, state: State, actions: list[Event]) -> list[Event]:
        """The actions a searching bot (montecarlo) weighs: by default every legal one."""
        return actions
