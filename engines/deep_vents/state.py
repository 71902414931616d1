"""One Deep Vents position, advanced event by event (rulebook + RULINGS DV-1..DV-16).

A game runs through these decisions, each one a log event:

- `bid` / `pass` (starting-bid ruleset only, DV-3), then per turn:
- `take` a row position (DV-2), `place` the hex (DV-4),
- `grow` or `trigger` every live hex in activation order, a `trigger` naming the
  same hex again being a repetition (DV-6), and `end` to finish the turn;
- inside a trigger, each attacked opponent holding a shell answers `shell`
  (DV-7) and each opponent made to decimate answers `decimate` (DV-9, DV-11);
- `payoff` of a shortfall token by any player at any moment (DV-8).

`current_seat()` is whoever decides next: a defender while a shell or
decimation choice is pending, the active player otherwise.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from mypy_extensions import mypyc_attr

from engines.core.errors import IllegalEventError, LogError, MalformedLogError, seat_label
from engines.core.game import Event, Outcome, State
from engines.deep_vents.board import ORDER_RANK, Coord, Tile, activation_key, neighbour_cells
from engines.deep_vents.describe import place_name
from engines.deep_vents.edition import Edition, HexType
from engines.deep_vents.hexes import Effect, can_trigger, pay_trigger, trigger_problem

BID, TAKE, PLACE, ACTIVATE, SHELL, DECIMATE, OVER = (
    "bid",
    "take",
    "place",
    "activate",
    "shell",
    "decimate",
    "over",
)


# A tile's activation order (DV-4), for sorting: Tile.order, kept on the tile.
_ORDER = attrgetter("order")
# A free cell's (DV-4): its order_rank, looked up in C.
_CELL_ORDER = ORDER_RANK.__getitem__

# The ruling each kind of pending decision follows (DECIMATE depends on its cause).
_PHASE_RULES = {
    BID: "DV-3",
    TAKE: "DV-2",
    PLACE: "DV-4",
    ACTIVATE: "DV-6",
    SHELL: "DV-7",
    OVER: "DV-14",
}


class Player:
    """One seat's ecosystem and personal supply."""

    __slots__ = (
        "eliminated_turn",
        "frontier",
        "hexes",
        "seat",
        "shells",
        "supply",
        "tokens",
        "turns",
    )

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.supply = 0
        self.shells = 0
        self.tokens = 0  # archaea shortfall tokens (DV-7, DV-8)
        self.turns = 0  # turns completed
        self.hexes: dict[Coord, Tile] = {}
        self.eliminated_turn: int | None = None  # game turn at whose end they were eliminated
        # (hexes it was counted for, free cells in order, own hexes each touches): hexes are
        # only ever added, so the count says when to count again. Never changed in place.
        self.frontier: tuple[int, list[Coord], dict[Coord, int]] = (0, [], {})

    @property
    def eliminated(self) -> bool:
        return self.eliminated_turn is not None

    def hex_archaea(self) -> int:
        return sum([t.archaea for t in self.hexes.values()])

    def copy(self, tiles: dict[int, Tile]) -> Player:
        """This player with copies of their tiles, each recorded in `tiles` (id -> copy)."""
        # Made by __init__: a compiled Player (engines.compiled) has no blank __new__.
        twin = Player(self.seat)
        twin.supply, twin.shells = self.supply, self.shells
        twin.tokens, twin.turns = self.tokens, self.turns
        twin.eliminated_turn = self.eliminated_turn
        twin.frontier = self.frontier
        hexes = {}
        for at, tile in self.hexes.items():
            hexes[at] = tiles[id(tile)] = tile.copy()
        for at, tile in self.hexes.items():
            hexes[at].neighbours = [tiles[id(nb)] for nb in tile.neighbours]
        twin.hexes = hexes
        return twin


def _coord(value: Any, field: str) -> Coord:
    if type(value) is list and len(value) == 2:
        q, r = value
        if type(q) is int and type(r) is int:
            return (q, r)
    raise MalformedLogError(
        f"{field} must be a [q, r] pair of integers, not {value!r}", field=field, rule="DV-4"
    )


def _at(tile: Tile) -> list[int]:
    return [tile.at[0], tile.at[1]]


# Serializable: clone makes one without __init__, which a compiled class's __new__ would call
# (engines.compiled). Compiled, only compiled code may then make one with __init__ (game.py).
@mypyc_attr(serializable=True)
class DeepVentsState(State):
    """A Deep Vents game in progress; `apply_action` validates every event itself."""

    end_rule = "DV-14"

    def __init__(
        self,
        edition: Edition,
        row_size: int,
        players: int,
        stack: list[HexType],
        *,
        opening_bidder: int | None = None,
        first_player: int = 0,
    ) -> None:
        self.edition = edition
        self.capacity = edition.hex_capacity
        self.row_size = row_size
        self.players = [Player(seat) for seat in range(players)]
        for player in self.players:
            start = edition.starting_hex
            player.hexes[(0, 0)] = Tile(start, (0, 0))  # each Deep Vent at (0, 0) (DV-4)
        # DV-2: the top row_size hexes are the choices; the rest wait face up in order.
        self.stack = stack
        self.stack_complete = len(stack) == edition.stack_size
        self.row: list[HexType] = stack[:row_size]
        self.row_archaea = [0] * len(self.row)
        self.next_in_stack = len(self.row)
        self.turn = 0  # game turns started (all players together)
        self.order: list[int] = []
        self.order_pos = 0
        self.active = -1
        self.active_turn = 0  # the active player's turn, counted from 1 (facts name it)
        self.bids: list[dict[str, Any]] = []
        self.high_bid = -1
        self.high_bidder: int | None = None
        self.passed: set[int] = set()
        self.opening_bidder = opening_bidder
        self.taken: tuple[HexType, int] | None = None
        self.activation: list[Tile] = []
        self.act_next = 0
        self.repeat_tile: Tile | None = None
        self.trigger_tile: Tile | None = None
        self.repetition = 0
        self.queue: Sequence[tuple[Any, dict[str, Any], int | None]] = ()
        self.queue_next = 0
        self.pending_damage = 0
        self.decimate_choices: dict[Coord, Tile] = {}
        self.decimate_cause = ""
        self.termination = ""
        self._trigger_fact: dict[str, Any] | None = None
        self._trigger_before = (0, 0)  # (supply, shells) as the trigger began, for its fact
        if opening_bidder is not None:
            self.phase = BID
            self.decider: int | None = opening_bidder
        else:
            self.phase = TAKE
            self._start_play(first_player, None)

    # --- the State interface ------------------------------------------------------------

    def current_seat(self) -> int | None:
        return self.decider

    def is_terminal(self) -> bool:
        return self.phase is OVER

    def apply_action(self, event: Any) -> None:  # anything a log holds: refused unless an event
        if self.phase is OVER:
            raise IllegalEventError("the game is already over", rule=self.end_rule)
        try:
            handler = _HANDLERS[event["type"]]
        except (KeyError, TypeError):
            raise MalformedLogError(
                f"unknown event {event.get('type')!r}; known: {', '.join(_HANDLERS)}"
                if isinstance(event, dict)
                else "an event is a JSON object"
            ) from None
        handler(self, event)

    def apply_events(
        self,
        events: Sequence[Event],
        on_event: Callable[[int, State], None] | None = None,
    ) -> None:
        """State.apply_events, calling each event's handler straight away (the loop every
        event of every log verified runs through): the same checks, errors and order. Half
        of all events are plain grows, in runs: each run is applied by _plain_grows."""
        handlers = _HANDLERS
        count = len(events)
        index = 0
        while index < count:
            event = events[index]
            phase = self.phase
            if phase is OVER:
                raise self.event_after_the_end(index, event)
            try:
                handler = handlers[event["type"]]
            except (KeyError, TypeError):
                handler = DeepVentsState.apply_action  # which refuses it, saying why
            if handler is _GROW and phase is ACTIVATE and on_event is None:
                after = self._plain_grows(events, index, count)
                if after != index:
                    index = after
                    continue
            try:
                handler(self, event)
            except LogError as exc:
                raise exc.at(index, event.get("seat")) from None
            if on_event is not None:
                on_event(index, self)
            index += 1

    def _plain_grows(self, events: Sequence[Event], index: int, count: int) -> int:
        """Apply the run of plain grows from events[index] on and answer the index of the
        first event that is not one. A plain grow (DV-4, DV-5, DV-6): the next hex of the
        activation order grows as it must (below HexType.plain_grow_below, DV-9), by its own
        seat, naming nothing else: each of _grow's checks passed in one test, what they read
        kept in locals for the run; the grow itself is _grow_tile's, as for any grow."""
        decider = self.decider
        activation = self.activation
        live = len(activation)
        grow_tile = self._grow_tile
        while index < count:
            event = events[index]
            if event.__class__ is not dict or len(event) != 3:
                break
            try:  # subscripts, cheaper than get: a key missing is no plain grow
                if event["type"] != "grow":
                    break
                seat = event["seat"]
                value = event["hex"]
            except KeyError:
                break
            position = self.act_next
            if (
                seat != decider
                or seat.__class__ is not int
                or value.__class__ is not list
                or len(value) != 2
                or position >= live
            ):
                break
            tile = activation[position]
            q, r = value
            if (
                q.__class__ is not int
                or r.__class__ is not int
                or tile.at != (q, r)
                or tile.decimated
                or tile.archaea >= tile.kind.plain_grow_below
            ):
                break
            grow_tile(tile, None)
            index += 1
        return index

    def clone(self) -> DeepVentsState:
        """An independent copy, player by player and tile by tile (a deepcopy took a fifth
        of an analysis playout). The edition, hex types, effect specs, the taken hex and the
        bids' entries are never changed in place, so they are shared; facts are not copied."""
        cls = type(self)
        twin = cls.__new__(cls)
        twin.__dict__.update(self.__dict__)  # copy.copy's shallow copy, without its protocol
        for name in _FIELDS:  # what a compiled state keeps out of its __dict__
            setattr(twin, name, getattr(self, name))
        twin.facts = None
        tiles: dict[int, Tile] = {}
        twin.players = [player.copy(tiles) for player in self.players]
        twin.stack = list(self.stack)
        twin.row = list(self.row)
        twin.row_archaea = list(self.row_archaea)
        twin.order = list(self.order)
        twin.bids = list(self.bids)
        twin.passed = set(self.passed)
        twin.queue = list(self.queue)
        twin.activation = [tiles[id(tile)] for tile in self.activation]
        if self.repeat_tile is not None:
            twin.repeat_tile = tiles[id(self.repeat_tile)]
        if self.trigger_tile is not None:
            twin.trigger_tile = tiles[id(self.trigger_tile)]
        twin.decimate_choices = {at: tiles[id(t)] for at, t in self.decimate_choices.items()}
        if self._trigger_fact is not None:
            twin._trigger_fact = copy.deepcopy(self._trigger_fact)
        return twin

    # --- small helpers ---------------------------------------------------------------

    def _expect(self, phase: str, event: Event) -> None:
        if self.phase is not phase:
            raise IllegalEventError(
                f"{self.must()} first; a {event['type']} cannot come now",
                rule=self.pending_rule(),
            )
        if event.get("seat") != self.decider:
            raise IllegalEventError(
                f"it is not {seat_label(event.get('seat'))}'s decision: {self.must()}",
                rule=self.pending_rule(),
            )

    def _unproven(self) -> None:
        """An event whose checks here do not prove it valid by the schema (schema.py): a key
        its type does not take, a seat that is not an int. Each handler proves the rest
        (the type, the seat's range as the decider's, each field's type and range), so a
        replay may leave the events out of the schema's check (Game.checks_event_shapes).
        The whole log is checked now, once (State.check_log), raising the schema's error;
        a valid event is then applied as ever."""
        check, self.check_log = self.check_log, None
        if check is not None:
            check()

    def pending_rule(self) -> str:
        """The ruling that governs the pending decision (error messages cite it)."""
        if self.phase is DECIMATE:
            return "DV-11" if self.decimate_cause == "bull-cachalot" else "DV-9"
        return _PHASE_RULES[self.phase]

    def waiting_for(self) -> str:
        """The pending decision, in words (error messages, viewers)."""
        seat = self.decider
        if self.phase is BID:
            verb = "open the bidding" if self.high_bidder is None else "bid or pass"
            return f"{seat_label(seat)} to {verb}"
        if self.phase is TAKE:
            return f"{seat_label(seat)} to take a hex from the row"
        if self.phase is PLACE:
            assert self.taken is not None
            return f"{seat_label(seat)} to place the {self.taken[0].name}"
        if self.phase is ACTIVATE:
            assert seat is not None  # the active player decides
            choices = []
            if self.repeat_tile is not None:
                choices.append(f"trigger {self.repeat_tile.kind.name} again")
            nxt = self._next_tile()
            if nxt is None:
                choices.append("end the turn")
            else:
                choices.append(f"grow or trigger {self.hex_name(seat, nxt.at)}")
            return f"{seat_label(seat)} to {' or '.join(choices)}"
        if self.phase is SHELL:
            return f"{seat_label(seat)} to decide on a shell against {self.pending_damage} damage"
        if self.phase is DECIMATE:
            return f"{seat_label(seat)} to decimate a hex ({self.decimate_cause})"
        return "nothing: the game is over"

    def opponents_in_play(self, seat: int) -> list[Player]:
        """The other players still in the game, clockwise from `seat` (DV-7, DV-16)."""
        n = len(self.players)
        players = self.players
        return [
            players[(seat + i) % n]
            for i in range(1, n)
            if players[(seat + i) % n].eliminated_turn is None
        ]

    def add(self, tile: Tile, amount: int) -> int:
        """Put archaea on a tile; beyond the cap they are lost (DV-6). Returns those kept."""
        room = self.capacity - tile.archaea
        if amount > room:
            amount = room if room > 0 else 0
        tile.archaea += amount
        return amount

    def hex_name(self, seat: int, at: Coord) -> str:
        """A hex of `seat`'s ecosystem, or a free cell beside one, as the replay names it
        (describe.place_name: "Yeti Crab (east of Deep Vent)", "east of Yeti Crab"); "" for a
        cell touching none. Errors reach players, who never see coordinates (issue 24)."""
        hexes = self.players[seat].hexes
        tile = hexes.get(at)
        if tile is not None and sum(t.kind is tile.kind for t in hexes.values()) == 1:
            return tile.kind.name  # the only one of its kind: named without the others
        names = {hex_id: kind.name for hex_id, kind in self.edition.hexes.items()}
        tiles = [
            {"hex": t.kind.id, "at": [t.at[0], t.at[1]]}
            for t in sorted(hexes.values(), key=activation_key)
        ]
        return place_name(names, tiles, [at[0], at[1]])

    def adjacent_choice(
        self, tile: Tile, event: Event, field: str, *, include_self: bool = False
    ) -> Tile:
        """The adjacent own hex (or this one) an event names in `field`."""
        value = event.get(field)
        if value is None:
            if include_self:
                return tile
            # A missing field is a malformed event (docs/log-format.md), not an illegal move.
            raise MalformedLogError(
                f"{event['type']} of {tile.kind.name} must name the adjacent hex in {field!r}",
                field=field,
                rule="DV-5",
            )
        at = _coord(value, field)
        if include_self and at == tile.at:
            return tile
        for nb in tile.neighbours:
            if nb.at == at:
                return nb
        named = self.hex_name(self.active, at)
        raise IllegalEventError(
            f"{field}: {named or 'that cell'} is not one of your hexes adjacent to "
            f"{self.hex_name(self.active, tile.at)}",
            rule="DV-4",
        )

    # --- bidding (DV-3) -------------------------------------------------------------

    def _bid(self, event: Event) -> None:
        self._expect(BID, event)
        if len(event) != 3 or event["seat"].__class__ is not int:
            self._unproven()  # amount: an int from 0 to the bid base (20 at most)
        amount = event.get("amount")
        if type(amount) is not int:
            raise MalformedLogError(
                f"a bid needs an integer amount, not {amount!r}", field="amount", rule="DV-3"
            )
        least = 0 if self.high_bidder is None else self.high_bid + 1
        base = self.edition.bid_base[len(self.players)]
        if amount < least:
            raise IllegalEventError(
                f"bid {amount} is too low: the next bid must be at least {least}", rule="DV-3"
            )
        if amount > base:
            raise IllegalEventError(
                f"bid {amount} exceeds the {base} archaea every player starts with", rule="DV-3"
            )
        self.high_bid, self.high_bidder = amount, self.decider
        self.bids.append({"seat": self.decider, "amount": amount})
        if self.facts is not None:
            self.facts.append(
                {"type": "bid", "seat": self.decider, "amount": amount, "game_turn": self.turn}
            )
        self._next_bidder()

    def _pass(self, event: Event) -> None:
        self._expect(BID, event)
        if len(event) != 2 or event["seat"].__class__ is not int:
            self._unproven()
        if self.high_bidder is None:
            raise IllegalEventError("the opening bidder must bid (0 is allowed)", rule="DV-3")
        assert self.decider is not None
        self.passed.add(self.decider)
        self.bids.append({"seat": self.decider, "pass": True})
        if self.facts is not None:
            self.facts.append({"type": "pass", "seat": self.decider, "game_turn": self.turn})
        self._next_bidder()

    def _next_bidder(self) -> None:
        """Clockwise to the next player who has not passed; a pass is final (DV-3)."""
        n = len(self.players)
        assert self.decider is not None
        for step in range(1, n):
            seat = (self.decider + step) % n
            if seat not in self.passed and seat != self.high_bidder:
                self.decider = seat
                return
        assert self.high_bidder is not None
        self._start_play(self.high_bidder, self.high_bid)

    def _start_play(self, first: int, winning_bid: int | None) -> None:
        """Turn order clockwise from the first player; starting archaea (DV-3)."""
        n = len(self.players)
        self.order = [(first + i) % n for i in range(n)]
        edition = self.edition
        for position, seat in enumerate(self.order):
            if winning_bid is None:
                supply = edition.starting_archaea[n][position]
            else:
                supply = edition.bid_base[n] + edition.bid_bonus[position]
            self.players[seat].supply = supply
        if winning_bid is not None:
            self.players[first].supply -= winning_bid
        if self.facts is not None:
            self.facts.append(
                {
                    "type": "turn-order",
                    "order": list(self.order),
                    "first_player": first,
                    "winning_bid": winning_bid,
                    "starting_archaea": [p.supply for p in self.players],
                    "game_turn": self.turn,
                }
            )
        self.order_pos = 0
        self._start_turn()

    # --- a turn: take, place, activate, end ---------------------------------------------

    def _start_turn(self) -> None:
        self.turn += 1
        self.active = self.order[self.order_pos]
        self.active_turn = self.players[self.active].turns + 1
        self.decider = self.active
        self.phase = TAKE

    def _take(self, event: Event) -> None:
        if self.phase is not TAKE or event.get("seat") != self.decider:
            self._expect(TAKE, event)
        if len(event) != 3 or event["seat"].__class__ is not int:
            self._unproven()  # position: an int from 1 to the row's size (6 at most)
        position = event.get("position")
        if type(position) is not int:
            raise MalformedLogError(
                f"take needs an integer position, not {position!r}", field="position", rule="DV-2"
            )
        if not 1 <= position <= len(self.row):
            raise IllegalEventError(
                f"position must be 1 to {len(self.row)}, not {position!r}", rule="DV-2"
            )
        player = self.players[self.active]
        if player.tokens and position != 1:
            raise IllegalEventError(
                f"cannot take position {position}: a player holding a shortfall token "
                "must take position 1",
                rule="DV-8",
            )
        cost = position - 1
        if cost > player.supply:
            raise IllegalEventError(
                f"cannot take position {position}: needs {cost} archaea, has {player.supply}",
                rule="DV-2",
            )
        if not self.stack_complete and len(self.row) < self.row_size:
            raise MalformedLogError(
                f"setup.stack lists only {len(self.stack)} hexes; this turn's row needs more",
                field="setup.stack",
                rule="DV-2",
            )
        if self.facts is not None:
            self._fact_take(player, position)
        player.supply -= cost
        row_archaea = self.row_archaea
        capacity = self.capacity
        for i in range(cost):
            # DV-2/DV-16: skip payments stay on the skipped hexes; beyond 10 they are lost.
            if row_archaea[i] < capacity:
                row_archaea[i] += 1
        kind = self.row.pop(cost)
        archaea = row_archaea.pop(cost)
        if self.next_in_stack < len(self.stack):
            self.row.append(self.stack[self.next_in_stack])
            row_archaea.append(0)
            self.next_in_stack += 1
        self.taken = (kind, archaea)
        self.phase = PLACE

    def _fact_take(self, player: Player, position: int) -> None:
        row, row_archaea = self.row, self.row_archaea
        turn, game_turn = self.active_turn, self.turn
        take = {
            "type": "take",
            "seat": player.seat,
            "turn": turn,
            "hex": row[position - 1].id,
            "position": position,
            "paid": position - 1,
            "archaea": row_archaea[position - 1],
            "offered": [kind.id for kind in row],  # what the statistics read of the row
            "game_turn": game_turn,
        }
        facts = self.facts
        assert facts is not None  # called only while collecting facts
        if not self.detail_facts:
            facts.append(take)
            return
        offered = [
            {"position": i + 1, "hex": row[i].id, "archaea": row_archaea[i]}
            for i in range(len(row))
        ]
        offer = {
            "type": "offer",
            "seat": player.seat,
            "turn": turn,
            "row": offered,
            "game_turn": game_turn,
        }
        facts += (offer, take)

    def _place(self, event: Event) -> None:
        if self.phase is not PLACE or event.get("seat") != self.decider:
            self._expect(PLACE, event)
        if len(event) != 3 or event["seat"].__class__ is not int:
            self._unproven()
        value = event.get("hex")
        if value.__class__ is list and len(value) == 2:
            q, r = value
            at = (q, r) if q.__class__ is int and r.__class__ is int else _coord(value, "hex")
        else:
            at = _coord(value, "hex")
        player = self.players[self.active]
        hexes = player.hexes
        if at in hexes:
            raise IllegalEventError(
                f"you already have a hex there: {self.hex_name(self.active, at)}", rule="DV-4"
            )
        around = neighbour_cells(at)
        neighbours = [hexes[c] for c in around if c in hexes]
        if not neighbours:
            raise IllegalEventError(
                "a new hex must touch one of your hexes; that cell touches none", rule="DV-4"
            )
        assert self.taken is not None
        kind, archaea = self.taken
        tile = Tile(kind, at, archaea)
        tile.neighbours = neighbours
        for nb in neighbours:
            nb.neighbours.append(tile)
        hexes[at] = tile
        counted, _, contacts = player.frontier
        if counted == len(hexes) - 1:  # counted just before this hex: add it to the count
            contacts = dict(contacts)
            contacts.pop(at, None)
            for cell in around:
                if cell not in hexes:
                    contacts[cell] = contacts.get(cell, 0) + 1
            player.frontier = (len(hexes), sorted(contacts, key=_CELL_ORDER), contacts)
        self.taken = None
        # DV-4: this turn's activation order, the new hex included (decimated ones never act).
        self.activation = sorted([t for t in hexes.values() if not t.decimated], key=_ORDER)
        self.act_next = 0
        self.repeat_tile = None
        self.phase = ACTIVATE
        if self.facts is not None and self.detail_facts:
            self.facts.append(
                {
                    "type": "place",
                    "seat": player.seat,
                    "turn": self.active_turn,
                    "hex": kind.id,
                    "at": list(at),
                    "neighbours": len(neighbours),
                    "game_turn": self.turn,
                }
            )

    def _next_tile(self) -> Tile | None:
        """The next live hex to activate this turn (DV-4, DV-6), or None when all are done."""
        activation = self.activation
        position, count = self.act_next, len(activation)  # read once: asked at every step
        while position < count:
            tile = activation[position]
            if not tile.decimated:
                self.act_next = position
                return tile
            position += 1
        self.act_next = position
        return None

    def _activation_target(self, event: Event, triggering: bool) -> Tile:
        """The hex a grow/trigger event names, checked against the activation order."""
        seat = event.get("seat")
        if self.phase is not ACTIVATE or seat != self.decider:
            self._expect(ACTIVATE, event)
        if seat.__class__ is not int:
            self._unproven()
        value = event.get("hex")
        # Most often the hex named is the live one the activation order is at (what
        # _next_tile() answers without skipping; never the repeat hex, which is behind it):
        # compared as written, before any lookup.
        activation, position = self.activation, self.act_next
        if position < len(activation) and value.__class__ is list and len(value) == 2:
            live = activation[position]
            q, r = value
            if (
                q.__class__ is int
                and r.__class__ is int
                and live.at == (q, r)
                and not live.decimated
            ):
                return live
        at = _coord(value, "hex")
        tile = self.players[self.active].hexes.get(at)
        if tile is None:
            raise IllegalEventError(
                f"{seat_label(self.active)} has no hex {self.hex_name(self.active, at) or 'there'}",
                rule="DV-4",
            )
        if tile is self.repeat_tile:
            if triggering:
                return tile
            raise IllegalEventError(
                f"{self.hex_name(self.active, at)} has triggered this turn: "
                "a hex grows or triggers, not both",
                rule="DV-6",
            )
        expected = self._next_tile()
        if tile is not expected:
            if expected is None:
                reason = "every hex has been activated this turn; next is end"
            elif tile.decimated:
                reason = f"{self.hex_name(self.active, at)} is decimated and cannot be activated"
            elif self.activation.index(tile) < self.act_next:
                reason = f"{self.hex_name(self.active, at)} has already been activated this turn"
            else:
                reason = (
                    "hexes activate top-left to bottom-right: next is "
                    f"{self.hex_name(self.active, expected.at)}"
                )
            raise IllegalEventError(reason, rule="DV-4" if expected is not None else "DV-6")
        return tile

    def _grow(self, event: Event) -> None:
        tile = self._activation_target(event, triggering=False)
        kind = tile.kind
        automatic = kind.automatic_at
        if automatic is not None and tile.archaea >= automatic:
            raise IllegalEventError(
                f"{kind.name} holds {tile.archaea} archaea: it must trigger", rule="DV-9"
            )
        choice = None
        keys = 3  # type, seat, hex: nothing else, so neither from nor source
        if kind.grow_takes_choice:
            choice = self.adjacent_choice(tile, event, "from")
            keys = 4
        if len(event) != keys:
            if choice is None and "from" in event:
                raise IllegalEventError(f"{kind.name} does not grow from another hex")
            if "source" in event:
                raise IllegalEventError("only a Colossal Squid trigger names a source")
            self._unproven()
        self._grow_tile(tile, choice)

    def _grow_tile(self, tile: Tile, choice: Tile | None) -> None:
        """A checked grow of the activation order's next hex (DV-5, DV-6)."""
        kind = tile.kind
        self.act_next += 1
        self.repeat_tile = None
        gained = kind.grow_amount
        before = 0  # what a Gulper Eel's grow takes (its fact says)
        if gained is None:
            if choice is not None:
                before = choice.archaea
            gained = kind.grow_behaviour(self, tile, choice)
        archaea = tile.archaea
        room = self.capacity - archaea  # DV-6: beyond the cap they are lost (as add)
        if gained > room:
            gained = room if room > 0 else 0
        tile.archaea = archaea + gained
        if self.facts is not None:
            # Statistics read a game's grows summed per seat and hex type (the "hex-totals"
            # fact its end adds): counted on the tile, not a fact each (150 a game).
            tile.grows += 1
            tile.grown += gained
            if self.detail_facts:
                self._fact_grow(tile, gained, choice, before)

    def _fact_grow(self, tile: Tile, gained: int, choice: Tile | None, before: int) -> None:
        at = tile.at
        fact = {
            "type": "grow",
            "seat": self.active,
            "turn": self.active_turn,
            "hex": tile.kind.id,
            "at": [at[0], at[1]],
            "archaea": gained,
        }
        if choice is not None:
            fact["from"] = _at(choice)
            fact["moved"] = before
        fact["game_turn"] = self.turn
        assert self.facts is not None  # called only while collecting facts
        self.facts.append(fact)

    def _trigger(self, event: Event) -> None:
        tile = self._activation_target(event, triggering=True)
        kind = tile.kind
        source = None
        keys = 3  # type, seat, hex: nothing else, so neither source nor from
        if kind.uses_source:
            source = self.adjacent_choice(tile, event, "source", include_self=True)
            if event.get("source") is not None:  # read as a hex, not taken for absent
                keys = 4
        if len(event) != keys:
            if not kind.uses_source and "source" in event:
                raise IllegalEventError(f"{kind.name} does not spend from a source hex")
            if "from" in event:
                raise IllegalEventError("only a Gulper Eel grow names a hex to take from")
            self._unproven()
        problem = trigger_problem(tile, source)
        if problem is not None:
            raise IllegalEventError(problem[0], rule=problem[1])
        if tile is self.repeat_tile:
            self.repetition += 1
        else:
            self.act_next += 1
            self.repeat_tile = tile
            self.repetition = 1
        player = self.players[self.active]
        facts = self.facts
        if facts is not None:
            # What the trigger collects and the shells it gains, measured when it finishes.
            self._trigger_before = (player.supply, player.shells)
        paid = pay_trigger(tile, source)
        if facts is not None and self.detail_facts:
            at = tile.at
            fact = {
                "type": "trigger",
                "seat": self.active,
                "turn": self.active_turn,
                "hex": kind.id,
                "at": [at[0], at[1]],
                "repetition": self.repetition,
                "paid": paid,
                "fed": 0,
            }
            if source is not None:
                fact["source"] = _at(source)
            self._trigger_fact = fact
        self.trigger_tile = tile
        # the effects, when none applies once per opponent
        queue: Sequence[tuple[Effect, dict[str, Any], int | None]] | None = kind.effects_alone
        if queue is None:
            per_opponent_queue: list[tuple[Effect, dict[str, Any], int | None]] = []
            opponents = self.opponents_in_play(self.active)
            for behaviour, spec, per_opponent in kind.effects:
                if per_opponent:
                    per_opponent_queue.extend([(behaviour, spec, p.seat) for p in opponents])
                else:
                    per_opponent_queue.append((behaviour, spec, None))
            queue = per_opponent_queue
        self.queue = queue
        self.queue_next = 0
        self._resolve()

    def _resolve(self) -> None:
        """Run the trigger's effects until one waits for a player's decision."""
        queue = self.queue
        tile = self.trigger_tile
        while self.queue_next < len(queue):
            behaviour, spec, seat = queue[self.queue_next]
            self.queue_next += 1
            if behaviour(self, tile, spec, seat):
                return
        self._finish_repetition()

    def _finish_repetition(self) -> None:
        tile = self.trigger_tile
        assert tile is not None
        for nb in tile.neighbours:
            # Vampire Squid (DV-10/DV-16): +1 after each repetition's cost and effects.
            passive = nb.kind.passive
            if passive is not None and passive["when"] == "adjacent_triggered" and not nb.decimated:
                gained = self.add(nb, passive["amount"])
                if self.facts is not None and self.detail_facts:
                    self._fact_passive(self.active, nb, gained)
        if self.facts is not None:
            supply, shells = self._trigger_before
            player = self.players[self.active]
            collected = player.supply - supply
            tile.triggers += 1  # summed in the "hex-totals" fact, as the grows
            tile.collected += collected
            fact = self._trigger_fact
            if fact is not None:
                fact["collected"] = collected
                fact["shells"] = player.shells - shells
                fact["game_turn"] = self.turn
                self.facts.append(fact)
                self._trigger_fact = None
        self.phase = ACTIVATE
        self.decider = self.active

    def _fact_passive(self, seat: int, tile: Tile, gained: int) -> None:
        assert self.facts is not None  # called only while collecting facts
        self.facts.append(
            {
                "type": "passive",
                "seat": seat,
                "hex": tile.kind.id,
                "at": _at(tile),
                "archaea": gained,
                "game_turn": self.turn,
            }
        )

    def _end(self, event: Event) -> None:
        if self.phase is not ACTIVATE or event.get("seat") != self.decider:
            self._expect(ACTIVATE, event)
        if len(event) != 2 or event["seat"].__class__ is not int:
            self._unproven()
        if self.act_next < len(self.activation):  # hexes left to act, unless all decimated
            nxt = self._next_tile()
            if nxt is not None:
                raise IllegalEventError(
                    f"the turn cannot end: {self.hex_name(self.active, nxt.at)} has not been "
                    "activated",
                    rule="DV-6",
                )
        player = self.players[self.active]
        player.turns += 1
        self.repeat_tile = None
        facts = self.facts
        game_turn = self.turn
        if facts is not None and self.detail_facts:
            facts.append(
                {
                    "type": "turn-end",
                    "seat": player.seat,
                    "turn": player.turns,
                    "supply": player.supply,
                    "shells": player.shells,
                    "tokens": player.tokens,
                    "hex_archaea": sum([t.archaea for t in player.hexes.values()]),
                    "game_turn": game_turn,
                }
            )
        players = self.players
        eliminated_at = self.edition.eliminated_at
        in_play = 0
        for other in players:
            if other.eliminated_turn is None:
                if other.tokens < eliminated_at:
                    in_play += 1
                    continue
                other.eliminated_turn = game_turn  # DV-8: at the end of every turn, 2+ tokens
                if facts is not None:
                    facts.append(
                        {
                            "type": "eliminated",
                            "seat": other.seat,
                            "turn": other.turns,
                            "tokens": other.tokens,
                            "game_turn": game_turn,
                        }
                    )
        if in_play <= 1:
            self._game_over("elimination")
            return
        order = self.order
        n = len(order)
        for step in range(1, n + 1):
            pos = (self.order_pos + step) % n
            following = players[order[pos]]
            if following.eliminated_turn is None:
                break
        if following.turns >= self.edition.turns:
            self._game_over("normal")  # DV-14: every player in play has had 8 turns
            return
        self.order_pos = pos
        self._start_turn()

    def _game_over(self, termination: str) -> None:
        self.phase = OVER
        self.decider = None
        self.termination = termination
        if self.facts is not None:
            self.facts.append(self._fact_hex_totals())
        # Nothing grows or triggers after the end: the tiles let go of one another. Adjacency
        # is a game's only reference cycle, so a finished game (a verified log, a playout's
        # copy) is then freed as soon as it is dropped instead of waiting for the garbage
        # collector: some 100 objects a game, whose collections were 5% of a verification.
        for player in self.players:
            for tile in player.hexes.values():
                tile.neighbours.clear()

    def _fact_hex_totals(self) -> dict[str, Any]:
        """What every hex type did for each seat, summed over the game: [seat, hex type,
        grows, archaea grown, trigger repetitions, archaea they collected, attacks, their
        damage], in seat order, then the order each type was first placed; types that did
        none of these left out. The grows', triggers' and attacks' own facts are detail
        (Game.detail_facts): the statistics read these sums (issue 25)."""
        rows = []
        for player in self.players:
            seat = player.seat
            totals: dict[str, list[Any]] = {}
            for tile in player.hexes.values():
                if tile.grows or tile.triggers or tile.attacks:
                    hex_id = tile.kind.id
                    row = totals.get(hex_id)
                    if row is None:
                        totals[hex_id] = row = [seat, hex_id, 0, 0, 0, 0, 0, 0]
                        rows.append(row)
                    row[2] += tile.grows
                    row[3] += tile.grown
                    row[4] += tile.triggers
                    row[5] += tile.collected
                    row[6] += tile.attacks
                    row[7] += tile.damage
        return {"type": "hex-totals", "hexes": rows, "game_turn": self.turn}

    # --- attacks, shells, decimation (DV-7..DV-13) -------------------------------------

    def feed_adjacent(self, tile: Tile, amount: int) -> None:
        """Archaea from the general supply onto each adjacent hex (capped, DV-6)."""
        fed = 0
        for nb in tile.neighbours:
            fed += self.add(nb, amount)
        if self._trigger_fact is not None:
            self._trigger_fact["fed"] += fed

    def collect(self, tile: Tile) -> None:
        self.players[self.active].supply += tile.archaea
        tile.archaea = 0

    def gain_shells(self, amount: int) -> None:
        self.players[self.active].shells += amount

    def destroy_shells(self, seat: int, amount: int) -> None:
        defender = self.players[seat]
        lost = min(amount, defender.shells)
        defender.shells -= lost
        if lost and self.facts is not None and self.detail_facts:
            self.facts.append(
                {
                    "type": "shell-destroyed",
                    "seat": seat,
                    "attacker": self.active,
                    "hex": self._attacking_hex(),
                    "shells": lost,
                    "game_turn": self.turn,
                }
            )

    def _attacking_hex(self) -> str | None:
        return self.trigger_tile.kind.id if self.trigger_tile is not None else None

    def attack(self, seat: int, damage: int) -> bool:
        """An attack on one defender; True when it waits for their shell choice (DV-7)."""
        if damage <= 0:
            return False  # DV-7: damage 0 is no attack
        if self.players[seat].shells:
            self.phase = SHELL
            self.decider = seat
            self.pending_damage = damage
            return True
        self._land(seat, damage, False)
        return False

    def _shell(self, event: Event) -> None:
        self._expect(SHELL, event)
        if len(event) != 3 or event["seat"].__class__ is not int:
            self._unproven()
        use = event.get("use")
        if type(use) is not bool:
            raise MalformedLogError(
                f"shell needs use: true or false, not {use!r}", field="use", rule="DV-7"
            )
        assert self.decider is not None
        self._land(self.decider, self.pending_damage, use)
        self._resolve()

    def _land(self, seat: int, damage: int, shell: bool) -> None:
        """Damage from the supply, borrowing 10 with a token while it falls short (DV-7)."""
        defender = self.players[seat]
        blocked = 0
        if shell:
            defender.shells -= 1
            blocked = (damage + 1) // 2  # a shell blocks half, rounded up
        taken = damage - blocked
        shortfalls = 0
        while taken > defender.supply:
            defender.tokens += 1
            defender.supply += self.edition.shortfall_loan
            shortfalls += 1
        defender.supply -= taken
        if self.facts is None:
            return
        attacker = self.trigger_tile
        if attacker is not None:  # summed in the "hex-totals" fact, as the grows
            attacker.attacks += 1
            attacker.damage += damage
        if self.detail_facts:
            self.facts.append(
                {
                    "type": "attack",
                    "seat": seat,
                    "attacker": self.active,
                    "turn": self.active_turn,
                    "hex": self._attacking_hex(),
                    "damage": damage,
                    "shell": shell,
                    "blocked": blocked,
                    "lost": taken,
                    "shortfalls": shortfalls,
                    "game_turn": self.turn,
                }
            )
            for _ in range(shortfalls):
                self.facts.append(
                    {
                        "type": "shortfall",
                        "seat": seat,
                        "tokens": defender.tokens,
                        "game_turn": self.turn,
                    }
                )

    def ask_decimate(self, seat: int, tiles: list[Tile], cause: str) -> bool:
        self.phase = DECIMATE
        self.decider = seat
        self.decimate_choices = {t.at: t for t in tiles}
        self.decimate_cause = cause
        return True

    def _decimate_event(self, event: Event) -> None:
        self._expect(DECIMATE, event)
        if len(event) != 3 or event["seat"].__class__ is not int:
            self._unproven()
        at = _coord(event.get("hex"), "hex")
        tile = self.decimate_choices.get(at)
        if tile is None:
            assert self.decider is not None
            choices = ", ".join(self.hex_name(self.decider, c) for c in self.decimate_choices)
            named = self.hex_name(self.decider, at)
            rule = "DV-11" if self.decimate_cause == "bull-cachalot" else "DV-9"
            raise IllegalEventError(
                f"cannot decimate {named or 'that cell'}; choose one of: {choices}", rule=rule
            )
        assert self.decider is not None
        self.decimate(self.decider, tile, self.decimate_cause)
        self.decimate_choices = {}
        self._resolve()

    def decimate(self, seat: int, tile: Tile, cause: str) -> None:
        """The owner keeps half (rounded up); the hex flips (DV-13); swarms feed (DV-10)."""
        owner = self.players[seat]
        kept = (tile.archaea + 1) // 2
        owner.supply += kept
        archaea = tile.archaea
        tile.archaea = 0
        tile.decimated = True
        if self.facts is not None:
            self.facts.append(
                {
                    "type": "decimate",
                    "seat": seat,
                    "by": self.active,
                    "turn": self.active_turn,
                    "hex": tile.kind.id,
                    "at": _at(tile),
                    "archaea": archaea,
                    "kept": kept,
                    "cause": cause,
                    "game_turn": self.turn,
                }
            )
        for other in self.opponents_in_play(seat):
            for swarm in other.hexes.values():
                passive = swarm.kind.passive
                if (
                    passive is not None
                    and passive["when"] == "opponent_decimates"
                    and not swarm.decimated
                ):
                    gained = self.add(swarm, passive["amount"])
                    if self.facts is not None and self.detail_facts:
                        self._fact_passive(other.seat, swarm, gained)

    # --- shortfall payoff (DV-8) ---------------------------------------------------------

    def _payoff(self, event: Event) -> None:
        if self.phase is OVER:
            raise IllegalEventError("the game is already over", rule="DV-14")
        seat = event.get("seat")
        if type(seat) is not int or not 0 <= seat < len(self.players):
            raise MalformedLogError(f"no seat {seat!r} at this table")
        if len(event) != 2:
            self._unproven()
        player = self.players[seat]
        if player.eliminated_turn is not None:
            raise IllegalEventError("an eliminated player takes no more actions", rule="DV-8")
        if not player.tokens:
            raise IllegalEventError("no shortfall token to pay off", rule="DV-8")
        cost = self.edition.shortfall_payoff
        if player.supply < cost:
            raise IllegalEventError(
                f"paying off a shortfall token costs {cost} archaea, has {player.supply}",
                rule="DV-8",
            )
        player.supply -= cost
        player.tokens -= 1
        if self.facts is not None and self.detail_facts:
            self.facts.append(
                {"type": "payoff", "seat": seat, "tokens": player.tokens, "game_turn": self.turn}
            )

    def forced_step(self) -> int:
        """State.forced_step for the common forced moves of a playout: a hex that may only
        grow (no choice of hex to grow from, no trigger it can afford) and the end of a turn,
        while nobody holds a shortfall token (so no payoff is offered, DV-8) and no hex may
        trigger again. Applies them in a row while the same seat decides (a turn's end hands
        the decision on, so it is the last), and answers how many; anything else answers 0
        and is played as an event."""
        if self.phase is not ACTIVATE or self.facts is not None:
            return 0
        for player in self.players:
            if player.tokens:
                return 0
        repeat = self.repeat_tile
        if repeat is not None and (repeat.kind.uses_source or can_trigger(repeat, None)):
            return 0
        # Grows change no tokens, decimate nothing and clear the repeat hex: only the next
        # hex of the activation order (_next_tile, walked here with its length read once) is
        # asked again.
        activation = self.activation
        position, count = self.act_next, len(activation)
        applied = 0
        while True:
            while position < count and activation[position].decimated:
                position += 1
            self.act_next = position
            if position == count:
                self._end({"type": "end", "seat": self.decider})
                return applied + 1
            tile = activation[position]
            kind = tile.kind
            automatic = kind.automatic_at
            if (
                (automatic is not None and tile.archaea >= automatic)
                or kind.grow_takes_choice
                or kind.uses_source
                or can_trigger(tile, None)
            ):
                return applied
            self._grow_tile(tile, None)  # which moves act_next past it
            position += 1
            applied += 1

    # --- legal actions (bots, the scorekeeper's recording page) --------------------------

    def legal_actions(self) -> list[Event]:
        if self.phase is OVER:
            return []
        return [*self.decision_actions(), *self.out_of_turn_actions()]

    def decision_actions(self) -> list[Event]:
        seat = self.decider
        phase = self.phase
        if phase is OVER or seat is None:
            return []
        actions: list[Event]
        if phase is BID:
            least = 0 if self.high_bidder is None else self.high_bid + 1
            base = self.edition.bid_base[len(self.players)]
            actions = [{"type": "bid", "seat": seat, "amount": a} for a in range(least, base + 1)]
            if self.high_bidder is not None:
                actions.append({"type": "pass", "seat": seat})
            return actions
        if phase is TAKE:
            player = self.players[seat]
            last = 1 if player.tokens else min(len(self.row), player.supply + 1)
            actions = [{"type": "take", "seat": seat, "position": p} for p in range(1, last + 1)]
        elif phase is PLACE:
            actions = [
                {"type": "place", "seat": seat, "hex": [at[0], at[1]]}
                for at in self.frontier(seat)[0]
            ]
        elif phase is ACTIVATE:
            repeat = self.repeat_tile
            actions = [] if repeat is None else self._trigger_actions(repeat)
            tile = self._next_tile()
            if tile is None:
                actions.append({"type": "end", "seat": seat})
            elif tile.kind.grow_takes_choice or tile.kind.uses_source:
                actions += self._grow_actions(tile)
                actions += self._trigger_actions(tile)
            else:
                # _grow_actions and _trigger_actions of a hex that names no other (most of
                # them), inlined: a playout asks at every activation it does not skip.
                automatic = tile.kind.automatic_at
                at = tile.at
                if automatic is None or tile.archaea < automatic:
                    actions.append({"type": "grow", "seat": self.active, "hex": [at[0], at[1]]})
                if can_trigger(tile, None):
                    actions.append({"type": "trigger", "seat": self.active, "hex": [at[0], at[1]]})
        elif phase is SHELL:
            actions = [
                {"type": "shell", "seat": seat, "use": True},
                {"type": "shell", "seat": seat, "use": False},
            ]
        else:
            actions = [
                {"type": "decimate", "seat": seat, "hex": list(at)} for at in self.decimate_choices
            ]
        if self.players[seat].tokens and self.may_pay_off(seat):  # tokens are rare: asked first
            actions.append({"type": "payoff", "seat": seat})
        return actions

    def may_pay_off(self, seat: int) -> bool:
        """DV-8: a player in the game holding a token and 10 archaea may pay it off."""
        player = self.players[seat]
        return (
            not player.eliminated
            and player.tokens > 0
            and player.supply >= self.edition.shortfall_payoff
        )

    def out_of_turn_actions(self) -> list[Event]:
        """DV-8 "at any moment between actions": every other seat that may pay off a token."""
        if self.phase is OVER:
            return []
        # may_pay_off, inlined and token first: asked at every step of a playout, where
        # tokens are rare.
        cost = self.edition.shortfall_payoff
        return [
            {"type": "payoff", "seat": player.seat}
            for player in self.players
            if player.tokens > 0
            and player.seat != self.decider
            and player.eliminated_turn is None
            and player.supply >= cost
        ]

    def free_cells(self, seat: int) -> list[Coord]:
        """Empty cells touching the seat's ecosystem, in activation order (DV-4)."""
        return list(self.frontier(seat)[0])

    def frontier(self, seat: int) -> tuple[list[Coord], dict[Coord, int]]:
        """The seat's free cells in activation order (DV-4) and how many of its hexes each
        touches; counted once per placement (playouts ask twice a placement: the legal
        places, then the bot's choice). Read only: the answer is shared."""
        player = self.players[seat]
        hexes = player.hexes
        counted, cells, contacts = player.frontier
        if counted != len(hexes):
            contacts = {}
            for at in hexes:
                for cell in neighbour_cells(at):
                    if cell not in hexes:
                        contacts[cell] = contacts.get(cell, 0) + 1
            cells = sorted(contacts, key=_CELL_ORDER)
            player.frontier = (len(hexes), cells, contacts)
        return cells, contacts

    def _grow_actions(self, tile: Tile) -> list[Event]:
        automatic = tile.kind.automatic_at
        if automatic is not None and tile.archaea >= automatic:
            return []
        event = {"type": "grow", "seat": self.active, "hex": _at(tile)}
        if tile.kind.grow_takes_choice:
            return [{**event, "from": _at(nb)} for nb in tile.neighbours]
        return [event]

    def _trigger_actions(self, tile: Tile) -> list[Event]:
        event = {"type": "trigger", "seat": self.active, "hex": _at(tile)}
        if tile.kind.uses_source:
            return [
                {**event, "source": _at(source)}
                for source in [tile, *tile.neighbours]
                if can_trigger(tile, source)
            ]
        return [event] if can_trigger(tile, None) else []

    # --- results (DV-14, DV-16) -----------------------------------------------------------

    def score(self, seat: int) -> int:
        player = self.players[seat]
        points = (
            player.supply
            + (player.shells + 1) // 2
            - self.edition.shortfall_penalty * player.tokens
        )
        if player.eliminated_turn is None:  # an eliminated player's hexes left play (DV-16)
            points += (player.hex_archaea() + 1) // 2
        return points

    def outcome(self) -> Outcome:
        if self.phase is not OVER:
            raise IllegalEventError("the game is not over")
        scores = tuple(self.score(seat) for seat in range(len(self.players)))
        turn_position = {seat: i for i, seat in enumerate(self.order)}

        def standing_key(seat: int) -> tuple[int, int, int, int]:
            # Survivors first; later eliminations above earlier (DV-8); then score and
            # turn order (DV-14, DV-16).
            out = self.players[seat].eliminated_turn
            return (out is not None, -(out or 0), -scores[seat], turn_position[seat])

        standing = sorted(range(len(self.players)), key=standing_key)
        ranks = [0] * len(self.players)
        for rank, seat in enumerate(standing, start=1):
            ranks[seat] = rank
        return Outcome(
            scores=scores,
            winners=(standing[0],),
            ranks=tuple(ranks),
            termination=self.termination,
        )

    # --- snapshot for viewers ---------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        players = []
        for player in self.players:
            tiles = sorted(player.hexes.values(), key=activation_key)
            players.append(
                {
                    "seat": player.seat,
                    "supply": player.supply,
                    "shells": player.shells,
                    "tokens": player.tokens,
                    "turns": player.turns,
                    "eliminated": player.eliminated,
                    "score": self.score(player.seat),
                    "hexes": [
                        {
                            "at": _at(t),
                            "hex": t.kind.id,
                            "archaea": t.archaea,
                            "decimated": t.decimated,
                            "traits": t.traits(),
                            "track": t.kind.track[t.track] if t.kind.track else None,
                        }
                        for t in tiles
                    ],
                }
            )
        pending: dict[str, Any] | None = None
        if self.phase is SHELL:
            pending = {"damage": self.pending_damage, "hex": self._attacking_hex()}
        elif self.phase is DECIMATE:
            pending = {
                "cause": self.decimate_cause,
                "choices": [list(at) for at in self.decimate_choices],
            }
        elif self.phase is ACTIVATE:
            nxt = self._next_tile()
            pending = {
                "next": _at(nxt) if nxt is not None else None,
                "repeat": _at(self.repeat_tile) if self.repeat_tile is not None else None,
            }
        elif self.phase is PLACE and self.taken is not None:
            pending = {"hex": self.taken[0].id, "archaea": self.taken[1]}
        return {
            "phase": self.phase,
            "current_seat": self.decider,
            "waiting_for": self.waiting_for(),
            "pending": pending,
            "turn": self.turn,
            "active": self.active if self.order else None,
            "order": list(self.order),
            "bids": list(self.bids),
            "players": players,
            "row": [
                {"position": i + 1, "hex": kind.id, "archaea": self.row_archaea[i]}
                for i, kind in enumerate(self.row)
            ],
            "stack": len(self.stack) - self.next_in_stack,
            "termination": self.termination or None,
        }


# Every attribute of a DeepVentsState but those of State (facts, detail_facts, check_log):
# clone copies each, as a compiled state keeps them out of its __dict__ (engines.compiled).
_FIELDS = (
    "_trigger_before",
    "_trigger_fact",
    "act_next",
    "activation",
    "active",
    "active_turn",
    "bids",
    "capacity",
    "decider",
    "decimate_cause",
    "decimate_choices",
    "edition",
    "high_bid",
    "high_bidder",
    "next_in_stack",
    "opening_bidder",
    "order",
    "order_pos",
    "passed",
    "pending_damage",
    "phase",
    "players",
    "queue",
    "queue_next",
    "repeat_tile",
    "repetition",
    "row",
    "row_archaea",
    "row_size",
    "stack",
    "stack_complete",
    "taken",
    "termination",
    "trigger_tile",
    "turn",
)
_GROW = DeepVentsState._grow
_HANDLERS = {
    "grow": _GROW,
    "trigger": DeepVentsState._trigger,
    "shell": DeepVentsState._shell,
    "take": DeepVentsState._take,
    "place": DeepVentsState._place,
    "end": DeepVentsState._end,
    "decimate": DeepVentsState._decimate_event,
    "payoff": DeepVentsState._payoff,
    "bid": DeepVentsState._bid,
    "pass": DeepVentsState._pass,
}
