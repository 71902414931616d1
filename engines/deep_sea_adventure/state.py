"""The rules of a Deep Sea Adventure game (and its Boost edition) as a State.

Positions: 0 is the submarine, space k (1..len(path)) is the k-th chip from it.
The path holds None for a blank chip, or a treasure item: a tuple of chips, one
chip for a dealt chip, up to three for a stack of drowned chips (DSA-5), which
weighs and moves as one chip (DSA-2).

A diver's turn: breathe (automatic), declare (optional `turn` / `boost`, or
`swim` for no declaration), `roll` (chance), `choose` two of three dice (Boost
rule 1), then `pick` / `drop` / `pass`. Steps with nothing to decide are
skipped without an event.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from engines.core.errors import IllegalEventError, LogError, MalformedLogError, seat_label
from engines.core.game import Event, Outcome, State
from engines.deep_sea_adventure.edition import Chip, Edition, roll_outcomes

Item = tuple[Chip, ...]

DECLARE, CHOOSE, TREASURE, OVER = "declare", "choose", "treasure", "over"
LAST_RETURNED, DEEPEST_DROWNED = "last-returned", "deepest-drowned"

TREASURE_STEP = "DSA step 4"
SWIM_STEP = "DSA step 3"


def _required(event: Event, field: str, what: str, rule: str) -> Any:
    """A field the event's type needs; its absence makes the event malformed, not illegal."""
    if field not in event:
        raise MalformedLogError(
            f"a {event.get('type')} event needs {field!r} ({what})", field=field, rule=rule
        )
    return event[field]


def chip_json(chip: Chip) -> dict[str, int]:
    return {"level": chip[0], "value": chip[1]}


def item_json(item: Item) -> list[dict[str, int]]:
    return [chip_json(chip) for chip in item]


# Which stage each event type belongs to; an event out of its stage means a decision that
# is pending was left out of the log.
EVENT_STAGES = {
    "turn": DECLARE,
    "boost": DECLARE,
    "swim": DECLARE,
    "roll": DECLARE,
    "choose": CHOOSE,
    "pick": TREASURE,
    "drop": TREASURE,
    "pass": TREASURE,
}
DECLARATIONS = {"turn": "DSA-4", "boost": "B-3", "swim": SWIM_STEP}
PENDING = {
    # decision -> (what the diver must do, the rule it follows)
    "declare": ("turn back, boost or swim on, then roll", "DSA-4"),
    "roll": ("roll the dice", "DSA-2"),
    CHOOSE: ("choose two of the three dice rolled", "B-2"),
    TREASURE: ("pick up, drop or leave treasure", TREASURE_STEP),
}


class DeepSeaState(State):
    """One moment of a game; `apply_action` validates each event directly."""

    end_rule = "DSA-8"

    def __init__(
        self,
        edition: Edition,
        players: int,
        chips: list[Chip],
        *,
        next_first_player: str = LAST_RETURNED,
        choose_two: bool = False,
        boost: bool = False,
    ) -> None:
        self.edition = edition
        self.players = players
        self.next_first_player = next_first_player
        self.choose_two = choose_two
        self.boost_allowed = boost
        self.path: list[Item | None] = [(chip,) for chip in chips]
        self.banked: list[list[Chip]] = [[] for _ in range(players)]
        self.dive = 0
        self.last_dive: dict[str, Any] | None = None
        # After a dive, drowned divers may still give their stacking order (DSA-5).
        self.restack: dict[str, Any] | None = None
        self._start_dive(first_seat=0)  # DSA-8: seat 0 starts the first dive

    def clone(self) -> DeepSeaState:
        """An independent copy, a list at a time (a deepcopy costs as much as a playout):
        chips and items are tuples, shared safely; facts are not copied."""
        twin = copy.copy(self)
        twin.facts = None
        twin.path = list(self.path)
        twin.banked = [list(chips) for chips in self.banked]
        twin.carried = [list(items) for items in self.carried]
        for name in ("position", "turned", "returned", "return_order", "turns_taken", "boosts"):
            setattr(twin, name, list(getattr(self, name)))
        twin.roll = None if self.roll is None else list(self.roll)
        twin.last_dive = copy.deepcopy(self.last_dive)
        twin.restack = copy.deepcopy(self.restack)
        return twin

    # -- the flow of a dive ---------------------------------------------------------------

    def _start_dive(self, first_seat: int) -> None:
        self.dive += 1
        if self.dive > self.edition.dives or not any(self.path):  # DSA-8
            self.stage = OVER
            self.seat = None
            return
        players = self.players
        self.first_seat = first_seat  # the dive's turn order runs clockwise from here
        self.air = self.edition.air
        self.position = [0] * players
        self.turned = [False] * players
        self.returned = [False] * players
        self.carried: list[list[Item]] = [[] for _ in range(players)]
        self.return_order: list[int] = []
        self.turns_taken = [0] * players
        self.boosts = [0] * players
        self.turns_in_dive = 0
        self._begin_turn(first_seat)

    def _begin_turn(self, seat: int) -> None:
        self.seat = seat
        self.turns_taken[seat] += 1
        self.turns_in_dive += 1
        self.boosting = False
        self.swam = False
        self.roll: list[int] | None = None
        self.stage = DECLARE
        self._breathe(len(self.carried[seat]))  # DSA-3: chips carried at the turn's start
        self.last_turn = self.air == 0

    def _breathe(self, amount: int) -> None:
        self.air = max(0, self.air - amount)

    def _end_turn(self) -> None:
        if self.last_turn or all(self.returned) or self._stuck():
            self._end_dive()
            return
        for step in range(1, self.players + 1):
            seat = (self.seat + step) % self.players
            if not self.returned[seat]:  # DSA-3: divers back aboard take no turns
                self._begin_turn(seat)
                return

    def _stuck(self) -> bool:
        """DSA-8 as settled by DSA-9: the dive stalls only when every diver in the water is
        still heading down, carries nothing, and no treasure lies at or deeper than it.

        A diver who has turned back is on the way home and will arrive, so it never stalls
        the dive, whatever it carries or whatever lies between it and the submarine.
        """
        for seat in range(self.players):
            if self.returned[seat]:
                continue
            if self.turned[seat] or self.carried[seat]:
                return False
            here = self.position[seat]
            if any(self.path[max(here - 1, 0) :]):  # space k is path[k - 1]
                return False
        return True

    def _end_dive(self) -> None:
        players = range(self.players)
        drowned = [seat for seat in players if not self.returned[seat]]
        points = [0] * self.players
        for seat in self.return_order:
            chips = [chip for item in self.carried[seat] for chip in item]
            self.banked[seat].extend(chips)
            points[seat] = sum(value for _, value in chips)
        first = self._next_first_player(drowned)
        nearest_first = sorted(drowned, key=lambda seat: (self.position[seat], seat))
        lost = {seat: list(self.carried[seat]) for seat in nearest_first if self.carried[seat]}
        self.path = [item for item in self.path if item is not None]
        self.restack = {
            "order": [seat for seat in nearest_first if seat in lost],
            "items": lost,
            "tail": len(self.path),
            "given": set(),
        }
        self.path.extend(self._stacks())
        self.last_dive = {
            "dive": self.dive,
            "returned": list(self.return_order),
            "drowned": drowned,
            "points": points,
            "first_next": first,
        }
        if self.facts is not None:
            self.facts.append(
                {
                    "type": "dive-end",
                    "dive": self.dive,
                    "points": points,
                    "returned": list(self.return_order),
                    "drowned": drowned,
                    "chips_lost": [
                        sum(map(len, self.carried[seat])) if seat in drowned else 0
                        for seat in players
                    ],
                    "positions": list(self.position),
                    "boosts": list(self.boosts),
                    "air": self.air,
                    "turns": self.turns_in_dive,
                    "next_first_player": first,
                }
            )
        self._start_dive(first)
        if self.stage == OVER or not lost:
            self.restack = None

    def _stacks(self) -> list[Item]:
        """DSA-5: drowned chips, nearest diver first, in stacks of up to stack_size."""
        restack = self.restack
        chips = [
            chip for seat in restack["order"] for item in restack["items"][seat] for chip in item
        ]
        size = self.edition.stack_size
        return [tuple(chips[start : start + size]) for start in range(0, len(chips), size)]

    def _next_first_player(self, drowned: list[int]) -> int:
        """DSA-6, option next_first_player."""

        def deepest(seats: list[int]) -> int:
            # DSA-10: a tie (only possible at depth 0) goes to the diver earliest in this
            # dive's turn order, which runs clockwise from the dive's first player.
            return max(
                seats,
                key=lambda seat: (self.position[seat], -self.turn_order_place(seat)),
            )

        if self.next_first_player == DEEPEST_DROWNED:
            return deepest(drowned) if drowned else self.return_order[-1]
        if self.return_order:
            return self.return_order[-1]
        return deepest(list(range(self.players)))

    def turn_order_place(self, seat: int) -> int:
        """0 for the dive's first player, 1 for the next seat clockwise, and so on."""
        return (seat - self.first_seat) % self.players

    # -- movement (DSA-2) -----------------------------------------------------------------

    def destination(self, seat: int, steps: int) -> int:
        """Where `steps` moves take a diver, skipping chips other divers occupy."""
        occupied = {
            self.position[other]
            for other in range(self.players)
            if other != seat and not self.returned[other] and self.position[other]
        }
        here = self.position[seat]
        if self.turned[seat]:
            for _ in range(steps):
                here -= 1
                while here > 0 and here in occupied:
                    here -= 1
                if here == 0:
                    break
            return here
        last = len(self.path)
        for _ in range(steps):
            target = here + 1
            while target <= last and target in occupied:
                target += 1
            if target > last:
                break  # past the last chip: stay on the deepest free one reached
            here = target
        return here

    def movement(self, total: int) -> int:
        """Roll total minus chips carried, never below 0 (a stack counts as one)."""
        return max(0, total - len(self.carried[self.seat]))

    def _swim(self, total: int) -> None:
        seat = self.seat
        self.position[seat] = self.destination(seat, self.movement(total))
        if self.turned[seat] and self.position[seat] == 0:
            self.returned[seat] = True
            self.return_order.append(seat)
            self._end_turn()
        elif self._treasure_choices():
            self.stage = TREASURE
        else:
            self._end_turn()

    def _treasure_choices(self) -> bool:
        here = self.position[self.seat]
        if here == 0:
            return False
        return self.path[here - 1] is not None or bool(self.carried[self.seat])

    # -- the State interface --------------------------------------------------------------

    def current_seat(self) -> int | None:
        return self.seat

    def can_turn(self) -> bool:
        return bool(self.carried[self.seat]) and not self.turned[self.seat]

    def can_boost(self) -> bool:
        return self.boost_allowed and not self.boosting

    def declaring(self) -> bool:
        """True while the current diver may still declare before rolling."""
        return self.stage == DECLARE and not self.swam and (self.can_turn() or self.can_boost())

    def dice(self) -> tuple[tuple[int, ...], ...]:
        """The dice of the coming roll: the boost dice for Boost rules 1 and 2."""
        if self.boosting or self.choose_two:
            return self.edition.boost_dice
        return self.edition.dice

    def is_chance_node(self) -> bool:
        return self.stage == DECLARE and not self.declaring()

    def chance_outcomes(self) -> list[tuple[Event, float]]:
        return [
            ({"type": "roll", "seat": self.seat, "dice": list(faces)}, chance)
            for faces, chance in roll_outcomes(self.dice())
        ]

    def legal_actions(self) -> list[Event]:
        seat = self.seat
        if self.stage == OVER:
            return []
        if self.stage == DECLARE:
            if not self.declaring():
                return [event for event, _ in self.chance_outcomes()]
            actions = []
            if self.can_turn():
                actions.append({"type": "turn", "seat": seat})
            if self.can_boost():
                actions.append({"type": "boost", "seat": seat})
            return [*actions, {"type": "swim", "seat": seat}]
        if self.stage == CHOOSE:
            pairs = {tuple(pair) for pair in combinations(self.roll, 2)}
            return [{"type": "choose", "seat": seat, "dice": list(p)} for p in sorted(pairs)]
        actions = [{"type": "pass", "seat": seat}]
        if self.path[self.position[seat] - 1] is not None:
            actions.append({"type": "pick", "seat": seat})
        else:
            actions.extend(
                {"type": "drop", "seat": seat, "chip": index}
                for index in range(len(self.carried[seat]))
            )
        return actions

    def apply_action(self, event: Event) -> None:
        kind = event.get("type")
        if self.stage == OVER:
            raise IllegalEventError("the game is already over", rule=self.end_rule)
        if kind == "stack":
            self._stack(event)
            return
        handler = self._handlers.get(kind)
        if handler is None:
            raise IllegalEventError(f"unknown event type {kind!r}")
        seat = event.get("seat")
        if seat != self.seat:
            if isinstance(seat, int) and 0 <= seat < self.players and self.returned[seat]:
                raise IllegalEventError(
                    "is back in the submarine and takes no more turns this dive", rule="DSA-3"
                )
            raise IllegalEventError(
                f"it is {seat_label(self.seat)}'s turn, not {seat_label(seat)}'s: {self.must()}",
                rule="DSA-8",
            )
        if EVENT_STAGES[kind] != self.stage:
            if kind in DECLARATIONS:
                raise IllegalEventError(
                    f"a {kind} is declared before rolling; {self.must()} now",
                    rule=DECLARATIONS[kind],
                )
            raise IllegalEventError(
                f"{self.must()} first; a {kind} cannot come now", rule=self.pending_rule()
            )
        restack, self.restack = self.restack, None
        try:
            handler(self, event)
        except LogError:
            self.restack = restack
            raise

    def _turn(self, event: Event) -> None:
        seat = self.seat
        self._check_declaring("turning back", "DSA-4")
        if self.turned[seat]:
            raise IllegalEventError("has already turned back this dive", rule="DSA-4")
        if not self.carried[seat]:
            raise IllegalEventError("cannot turn back while carrying no treasure", rule="DSA-4")
        self.turned[seat] = True
        if self.facts is not None:
            self.facts.append(
                {
                    "type": "turn-back",
                    "dive": self.dive,
                    "seat": seat,
                    "turn": self.turns_taken[seat],
                    "depth": self.position[seat],
                    "air": self.air,
                    "chips": len(self.carried[seat]),
                }
            )

    def _boost(self, event: Event) -> None:
        if not self.boost_allowed:
            raise IllegalEventError("this ruleset has no boost (option boost is off)", rule="B-3")
        self._check_declaring("a boost", "B-3")
        if self.boosting:
            raise IllegalEventError("has already declared a boost this turn", rule="B-3")
        self.boosting = True
        self.boosts[self.seat] += 1
        self._breathe(1)  # B-3: on top of breathing
        self.last_turn = self.last_turn or self.air == 0

    def _swim_on(self, event: Event) -> None:
        self._check_declaring("swimming on", SWIM_STEP)
        self.swam = True

    def _check_declaring(self, what: str, rule: str) -> None:
        if self.stage != DECLARE:
            raise IllegalEventError(f"{what} is declared before rolling", rule=rule)
        if self.swam:
            raise IllegalEventError(
                f"{what} comes too late: this diver already chose to swim on", rule=rule
            )

    def _roll(self, event: Event) -> None:
        if self.stage != DECLARE:
            raise IllegalEventError("has already rolled this turn", rule=SWIM_STEP)
        dice = self.dice()
        rule = "B-1" if dice is self.edition.boost_dice else "DSA-1"
        faces = _required(event, "dice", f"the {len(dice)} faces rolled", rule)
        if not isinstance(faces, list) or len(faces) != len(dice):
            raise IllegalEventError(f"a roll lists {len(dice)} dice here, not {faces!r}", rule=rule)
        for number, (face, die) in enumerate(zip(faces, dice, strict=True), 1):
            if face not in die or type(face) is not int:
                raise IllegalEventError(
                    f"die {number} has no face {face!r} (faces {sorted(set(die))})", rule=rule
                )
        if self.choose_two and not self.boosting:
            self.roll = list(faces)
            self.stage = CHOOSE
        else:
            self._swim(sum(faces))

    def _choose(self, event: Event) -> None:
        if self.stage != CHOOSE:
            raise IllegalEventError("no roll of three dice is waiting for a choice", rule="B-2")
        chosen = _required(event, "dice", "the two faces used", "B-2")
        left = list(self.roll)
        if not isinstance(chosen, list) or len(chosen) != 2:
            raise IllegalEventError(f"choose exactly two dice, not {chosen!r}", rule="B-2")
        for face in chosen:
            if face not in left or type(face) is not int:
                raise IllegalEventError(
                    f"chosen dice {chosen} are not two of the rolled {self.roll}", rule="B-2"
                )
            left.remove(face)
        self._swim(sum(chosen))

    def _check_treasure_step(self) -> None:
        if self.stage != TREASURE:
            raise IllegalEventError(
                "no treasure decision is pending (the treasure step comes after moving, and is "
                "skipped when the only choice is to do nothing)",
                rule=TREASURE_STEP,
            )

    def _pick(self, event: Event) -> None:
        self._check_treasure_step()
        seat = self.seat
        here = self.position[seat]
        item = self.path[here - 1]
        if item is None:
            raise IllegalEventError(
                f"cannot pick up a blank chip (space {here})", rule=TREASURE_STEP
            )
        self.carried[seat].append(item)
        self.path[here - 1] = None
        self._end_turn()

    def _drop(self, event: Event) -> None:
        self._check_treasure_step()
        seat = self.seat
        here = self.position[seat]
        if self.path[here - 1] is not None:
            raise IllegalEventError(
                f"can drop treasure only on a blank chip; space {here} holds treasure",
                rule=TREASURE_STEP,
            )
        index = _required(event, "chip", "which carried chip, from 0", TREASURE_STEP)
        carried = self.carried[seat]
        if type(index) is not int or not 0 <= index < len(carried):
            raise IllegalEventError(
                f"carries {len(carried)} chip(s), numbered from 0 in the order picked up; "
                f"there is no chip {index!r}",
                rule=TREASURE_STEP,
            )
        self.path[here - 1] = carried.pop(index)
        self._end_turn()

    def _pass(self, event: Event) -> None:
        self._check_treasure_step()
        self._end_turn()

    _handlers: Mapping[str, Any] = {
        "turn": _turn,
        "boost": _boost,
        "swim": _swim_on,
        "roll": _roll,
        "choose": _choose,
        "pick": _pick,
        "drop": _drop,
        "pass": _pass,
    }

    def _stack(self, event: Event) -> None:
        """DSA-5: a drowned diver's stacking order, given right after the dive."""
        restack = self.restack
        if restack is None:
            raise IllegalEventError(
                "stacking orders are given right after a dive ends, before any event of the "
                "next dive",
                rule="DSA-5",
            )
        seat = event.get("seat")
        if seat not in restack["items"]:
            raise IllegalEventError(
                f"did not drown carrying treasure in dive {self.dive - 1}", rule="DSA-5"
            )
        if seat in restack["given"]:
            raise IllegalEventError("has already given a stacking order", rule="DSA-5")
        items = restack["items"][seat]
        order = _required(event, "order", "the carried chips in stacking order", "DSA-5")
        if not isinstance(order, list) or sorted(order) != list(range(len(items))):
            raise IllegalEventError(
                f"the order must list each of the {len(items)} carried chips once "
                f"(0..{len(items) - 1}), not {order!r}",
                rule="DSA-5",
            )
        restack["items"][seat] = [items[index] for index in order]
        restack["given"].add(seat)
        del self.path[restack["tail"] :]
        self.path.extend(self._stacks())

    def is_terminal(self) -> bool:
        return self.stage == OVER

    def stacking_orders_open(self) -> list[dict[str, Any]]:
        """DSA-5: drowned divers who may still give a stacking order, with the items they
        carried (each a list of chips) in carried order. Empty once the next dive began;
        a diver with one item has no order to give."""
        restack = self.restack
        if not restack:
            return []
        return [
            {"seat": seat, "items": [item_json(item) for item in items]}
            for seat, items in restack["items"].items()
            if seat not in restack["given"] and len(items) > 1
        ]

    def recording_extras(self) -> dict[str, Any]:
        return {"stacking": self.stacking_orders_open()}

    def outcome(self) -> Outcome:
        """DSA-7: points, then more level-4 chips, then 3, 2, 1; still tied: shared win."""
        levels = len(self.edition.levels)
        keys = []
        for chips in self.banked:
            counts = [0] * (levels + 1)
            for level, _ in chips:
                counts[level] += 1
            keys.append((sum(value for _, value in chips), *reversed(counts[1:])))
        best = max(keys)
        return Outcome(
            scores=tuple(key[0] for key in keys),
            winners=tuple(seat for seat, key in enumerate(keys) if key == best),
            ranks=tuple(1 + sum(other > key for other in keys) for key in keys),
        )

    # -- a picture of the table -----------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        over = self.stage == OVER
        path = []
        for space, item in enumerate(self.path, 1):
            if item is None:
                path.append({"space": space, "kind": "blank"})
            else:
                kind = "chip" if len(item) == 1 else "stack"
                path.append({"space": space, "kind": kind, "chips": item_json(item)})
        divers = []
        for seat in range(self.players):
            banked = self.banked[seat]
            diver: dict[str, Any] = {
                "seat": seat,
                "banked": [chip_json(chip) for chip in banked],
                "points": sum(value for _, value in banked),
            }
            if not over:
                diver.update(
                    position=self.position[seat],
                    direction="up" if self.turned[seat] else "down",
                    status=self._status(seat),
                    carried=[item_json(item) for item in self.carried[seat]],
                )
            divers.append(diver)
        return {
            "dive": min(self.dive, self.edition.dives),
            "air": None if over else self.air,
            "path": path,
            "divers": divers,
            "turn": None if over else self._turn_json(),
            "pending": None if over else self._pending_json(),
            "last_dive": self.last_dive,
            "stacking_open": self.restack is not None,
            "over": over,
        }

    def _status(self, seat: int) -> str:
        if self.returned[seat]:
            return "returned"
        if self.turned[seat]:
            return "returning"
        return "diving" if self.position[seat] else "aboard"

    def _turn_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "number": self.turns_in_dive,
            "boost": self.boosting,
            "dice": self.roll,
            "last_turn": self.last_turn,
        }

    def _decision(self) -> str:
        if self.stage == DECLARE:
            return "declare" if self.declaring() else "roll"
        return self.stage

    def _pending_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decision": self._decision()}

    def waiting_for(self) -> str:
        if self.stage == OVER:
            return "nothing: the game is over"
        return f"{seat_label(self.seat)} to {PENDING[self._decision()][0]}"

    def pending_rule(self) -> str | None:
        return None if self.stage == OVER else PENDING[self._decision()][1]
