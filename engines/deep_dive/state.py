"""The rules of Deep Dive: dive passes, the shark, surfacing, opening and the end (DD-1..6).

Shells are unknown until opened, so the state keeps counts only: how many shells lie
in the pool, how many each diver holds, and how many of each kind are still unopened
anywhere (pool and divers' hands alike). An `open` event is possible when it takes no
more of a kind than remain unopened; shells a shark sends back rejoin the pool unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from itertools import product
from math import comb
from typing import Any

from engines.core.errors import IllegalEventError, seat_label
from engines.core.game import Event, Outcome, State
from engines.deep_dive import events
from engines.deep_dive.edition import KINDS, Edition


class Phase(StrEnum):
    DIVE = "dive"  # chance: a diver rolls the colour die and draws (DD-2)
    SHARK = "shark"  # chance: the starting player rolls the shark die (DD-3)
    DECIDE = "surface-or-stay"  # decision of a diver still in the water (DD-3)
    OPEN = "open"  # chance: what a surfacing diver's shells were (DD-4)
    OVER = "over"


# What each phase waits for, and the rule that governs it (for error messages).
EXPECTED = {
    Phase.DIVE: ("roll the colour die", ("dive",), "DD-2"),
    Phase.SHARK: ("roll the shark die", ("shark",), "DD-3"),
    Phase.DECIDE: ("surface or stay", ("surface", "stay"), "DD-3"),
    Phase.OPEN: ("open their shells", ("open",), "DD-4"),
}
# Each kind of event as players say it, for one that comes out of turn (never its type
# in quotes: errors reach players, issue 24).
DOING = {
    "dive": "a roll of the colour die",
    "shark": "a roll of the shark die",
    "surface": "surfacing",
    "stay": "staying",
    "open": "opening shells",
}


NOUNS = {"white": "white pearl", "black": "black pearl", "empty": "empty shell"}


def _fail(message: str, rule: str) -> IllegalEventError:
    return IllegalEventError(message, rule=rule)


class DeepDiveState(State):
    """A Deep Dive table, mutated one event at a time."""

    end_rule = "DD-5"

    def __init__(self, edition: Edition, players: int) -> None:
        self.edition = edition
        self.players = players
        self.removed_white = edition.white_removed_by_players[players]
        self.unopened = edition.starting_pool(players)  # kind -> unopened shells (pool + held)
        self.pool = sum(self.unopened.values())
        self.held = [0] * players  # unopened shells in front of each diver
        self.section: list[str | None] = [None] * players  # None: not in the water
        self.white_pearls = [0] * players
        self.black_pearls = 0
        self.empty_removed = 0
        self.round = 1
        self.starting_seat = 0  # DD-6
        self.dive_pass = 1
        self.queue: list[int] = []  # seats still to act in the current step, in order
        self.phase = Phase.DIVE
        self.ending = False  # the 4th black pearl is out: the game ends after this step
        self.final = False  # the game has ended; remaining divers open their shells (DD-5)
        self.round_points = [0] * players
        self.round_drawn = 0
        self._start_round()

    # --- order and queries -------------------------------------------------------------

    def seats_from_start(self) -> list[int]:
        """Every seat, from the starting player clockwise (rising seat number)."""
        return [(self.starting_seat + i) % self.players for i in range(self.players)]

    def divers_in_water(self) -> list[int]:
        return [seat for seat in self.seats_from_start() if self.section[seat] is not None]

    def current_seat(self) -> int | None:
        if self.phase is Phase.OVER:
            return None
        if self.phase is Phase.SHARK:
            return self.starting_seat  # even when out of the water (DD-3)
        return self.queue[0]

    def is_chance_node(self) -> bool:
        return self.phase in (Phase.DIVE, Phase.SHARK, Phase.OPEN)

    def waiting_for(self) -> str:
        if self.phase is Phase.OVER:
            return "nothing: the game is over"
        return f"{seat_label(self.current_seat())} to {EXPECTED[self.phase][0]}"

    def pending_rule(self) -> str | None:
        return EXPECTED[self.phase][2] if self.phase in EXPECTED else None

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def expected_draw(self) -> float:
        """Shells the next colour-die roll would draw from the pool as it is now."""
        die = self.edition.colour_die
        return sum(min(self.edition.section_shells[c], self.pool) for c in die) / len(die)

    def chance_outcomes(self) -> list[tuple[Event, float]]:
        seat = self.current_seat()
        if self.phase is Phase.DIVE:
            return _die_outcomes(self.edition.colour_die, lambda c: events.dive(seat, c))
        if self.phase is Phase.SHARK:
            return _die_outcomes(self.edition.shark_die, lambda c: events.shark(seat, c))
        if self.phase is Phase.OPEN:
            return self._opening_outcomes(seat)
        raise ValueError(f"no chance outcome in phase {self.phase}")

    def _opening_outcomes(self, seat: int) -> list[tuple[Event, float]]:
        """Held shells are a uniform sample of the unopened ones: multivariate hypergeometric."""
        held = self.held[seat]
        white, black, empty = (self.unopened[kind] for kind in KINDS)
        total = comb(white + black + empty, held)
        outcomes = []
        for w, b in product(range(min(white, held) + 1), range(min(black, held) + 1)):
            e = held - w - b
            if 0 <= e <= empty:
                weight = comb(white, w) * comb(black, b) * comb(empty, e)
                outcomes.append((events.open_shells(seat, w, b, e), weight / total))
        return outcomes

    def legal_actions(self) -> list[Event]:
        if self.phase is Phase.OVER:
            return []
        if self.phase is Phase.DECIDE:
            seat = self.queue[0]
            return [events.surface(seat), events.stay(seat)]
        return [event for event, _ in self.chance_outcomes()]

    # --- applying events ---------------------------------------------------------------

    def apply_action(self, event: Event) -> None:
        if self.phase is Phase.OVER:
            raise _fail("the game is already over", "DD-5")
        _, types, rule = EXPECTED[self.phase]
        seat = self.current_seat()
        if event.get("seat") != seat:
            raise _fail(f"it is not {seat_label(event.get('seat'))}'s turn: {self.must()}", rule)
        if event.get("type") not in types:
            doing = DOING.get(event.get("type"), "that")
            raise _fail(f"{self.must()} first; {doing} cannot come now", rule)
        if self.phase is Phase.DIVE:
            self._dive(seat, event.get("colour"))
        elif self.phase is Phase.SHARK:
            self._shark(seat, event.get("colour"))
        elif self.phase is Phase.DECIDE:
            self._decide(seat, event["type"] == "surface")
        else:
            self._open(seat, event)

    def _dive(self, seat: int, colour: Any) -> None:
        """DD-2: move to the rolled section and draw its shells, fewer if the pool is short."""
        if colour not in self.edition.colour_die:
            raise _fail(_not_a_face(colour, "colour", self.edition.colour_die), "DD-2")
        drawn = min(self.edition.section_shells[colour], self.pool)
        self.pool -= drawn
        self.held[seat] += drawn
        self.section[seat] = colour
        self.round_drawn += drawn
        self.queue.pop(0)
        if self.facts is not None:
            self.facts.append(
                {"type": "draw", **self._when(), "seat": seat, "colour": colour, "shells": drawn}
            )
        if self.pool == 0:
            self._end_game()  # DD-5: the pool is empty at the end of a turn
        elif not self.queue:
            self.phase = Phase.SHARK

    def _shark(self, seat: int, colour: Any) -> None:
        """DD-3: divers in the shark's section lose their unopened shells to the pool."""
        if colour not in self.edition.shark_die:
            raise _fail(_not_a_face(colour, "shark", self.edition.shark_die), "DD-3")
        hits = []
        for diver in self.divers_in_water():
            if self.section[diver] == colour:
                hits.append({"seat": diver, "shells_lost": self.held[diver]})
                self.pool += self.held[diver]
                self.held[diver] = 0
                self.section[diver] = None
        if self.facts is not None:
            self.facts.append(
                {"type": "shark", **self._when(), "seat": seat, "colour": colour, "hits": hits}
            )
        self.queue = self.divers_in_water()
        self._next_decision()

    def _decide(self, seat: int, surfaces: bool) -> None:
        if surfaces:
            self.section[seat] = None
            self.phase = Phase.OPEN  # the queue head stays: it is the diver who opens
        else:
            self.queue.pop(0)
            self._next_decision()

    def _open(self, seat: int, event: Event) -> None:
        """DD-4: the opened shells must be a sample the unopened shells could give."""
        counts = {kind: event.get(kind) for kind in KINDS}
        for kind, count in counts.items():
            if type(count) is not int or count < 0:
                raise _fail(f"{kind} must be a count of shells, not {count!r}", "DD-4")
        held = self.held[seat]
        if sum(counts.values()) != held:
            raise _fail(
                f"{seat_label(seat)} opens {held} shell{'s' * (held != 1)}, but the event lists "
                f"{counts['white']} white + {counts['black']} black + {counts['empty']} empty",
                "DD-4",
            )
        for kind, count in counts.items():
            if count > self.unopened[kind]:
                raise _fail(self._too_many(kind, count), "DD-4")
        for kind, count in counts.items():
            self.unopened[kind] -= count
        self.held[seat] = 0
        self.section[seat] = None
        self.white_pearls[seat] += counts["white"]
        self.round_points[seat] += counts["white"]
        self.black_pearls += counts["black"]
        self.empty_removed += counts["empty"]
        if self.black_pearls >= self.edition.black_pearls_to_end:
            self.ending = True  # DD-5: the game ends once this surfacing step is over
        if self.facts is not None:
            surfacing = {"type": "surface", **self._when(), "seat": seat, "shells": held}
            self.facts.append({**surfacing, **counts, "forced": self.final})
        self.queue.pop(0)
        if self.final:
            self._next_final_opening()
        else:
            self._next_decision()

    def _too_many(self, kind: str, count: int) -> str:
        opened = {
            "white": sum(self.white_pearls),
            "black": self.black_pearls,
            "empty": self.empty_removed,
        }[kind]
        in_play = self.unopened[kind] + opened
        where = f"{in_play} in play for {self.players} players, {opened} already opened"
        noun = NOUNS[kind]
        if self.unopened[kind] == 0:
            return f"no {noun} can be opened: none remains unopened ({where})"
        left = self.unopened[kind]
        verb = "remains" if left == 1 else "remain"
        return f"cannot open {count} {noun}s: only {left} {verb} unopened ({where})"

    # --- steps, rounds and the end ------------------------------------------------------

    def _when(self) -> dict[str, int]:
        return {"round": self.round, "pass": self.dive_pass}

    def _next_decision(self) -> None:
        """Ask the next diver in the queue, or close the surfacing step (DD-3, DD-5)."""
        if self.queue:
            self.phase = Phase.DECIDE
        elif self.ending:
            self._end_game()
        elif not self.divers_in_water():
            self._record_round()
            self.round += 1
            self.starting_seat = (self.starting_seat + 1) % self.players  # DD-5
            self._start_round()
        else:
            self.dive_pass += 1
            self.queue = self.divers_in_water()
            self.phase = Phase.DIVE

    def _start_round(self) -> None:
        self.dive_pass = 1
        self.round_points = [0] * self.players
        self.round_drawn = 0
        self.queue = self.seats_from_start()  # every player dives at a round's start (DD-2)
        self.phase = Phase.DIVE

    def _record_round(self) -> None:
        if self.facts is not None:
            self.facts.append(
                {
                    "type": "round",
                    "round": self.round,
                    "starting_seat": self.starting_seat,
                    "passes": self.dive_pass,
                    "shells_drawn": self.round_drawn,
                    "points": list(self.round_points),
                }
            )

    def _end_game(self) -> None:
        """DD-5: divers still in the water surface and open, from the starting player."""
        self.final = True
        self.queue = self.divers_in_water()
        self._next_final_opening()

    def _next_final_opening(self) -> None:
        if self.queue:
            self.phase = Phase.OPEN
        else:
            self._record_round()  # the round the game ends in counts too (DD-5)
            self.phase = Phase.OVER

    def outcome(self) -> Outcome:
        """Most white pearls wins; ties all win (DD-5)."""
        if self.phase is not Phase.OVER:
            raise ValueError("the game is not over")
        best = max(self.white_pearls)
        return Outcome(
            scores=tuple(self.white_pearls),
            winners=tuple(s for s, w in enumerate(self.white_pearls) if w == best),
            ranks=tuple(1 + sum(o > w for o in self.white_pearls) for w in self.white_pearls),
        )

    # --- pictures ----------------------------------------------------------------------

    def pending(self) -> dict[str, Any] | None:
        if self.phase is Phase.OVER:
            return None
        return {
            "seat": self.current_seat(),
            "decision": str(self.phase),
            "chance": self.is_chance_node(),
            "events": list(EXPECTED[self.phase][1]),
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "starting_seat": self.starting_seat,
            "pass": self.dive_pass,
            "phase": str(self.phase),
            "turn": self.current_seat(),
            "pending": self.pending(),
            "sections": [
                {
                    "colour": colour,
                    "shells": shells,
                    "divers": [s for s in self.seats_from_start() if self.section[s] == colour],
                }
                for colour, shells in self.edition.section_shells.items()
            ],
            "divers": [
                {"seat": s, "section": self.section[s], "unopened": self.held[s]}
                for s in range(self.players)
            ],
            "white_pearls": list(self.white_pearls),
            "black_pearls": self.black_pearls,
            "empty_removed": self.empty_removed,
            "white_set_aside": self.removed_white,
            "pool": {"shells": self.pool, "unopened": dict(self.unopened)},
            "game_ending": self.ending or self.final,
        }


def _die_outcomes(
    faces: tuple[str, ...], make: Callable[[str], Event]
) -> list[tuple[Event, float]]:
    distinct = dict.fromkeys(faces)
    return [(make(colour), faces.count(colour) / len(faces)) for colour in distinct]


def _not_a_face(colour: Any, die: str, faces: tuple[str, ...]) -> str:
    return f"{colour!r} is not a face of the {die} die ({', '.join(dict.fromkeys(faces))})"
