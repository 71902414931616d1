"""Registering a pasted list of names at the desk: each line a name, matched to the players
the site knows on the canonical form of names (players.names), new names created
(players.services), and names that only look like a known player's flagged for the
organiser to decide: the same player, or someone new."""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass, field

from django.db import transaction

from players.models import Player
from players.names import canonical_name, name_problem, sort_key
from players.services import players_for
from tournaments.models import Registration, Tournament
from tournaments.services.day import enter

# Two names this alike (difflib's ratio of their loose forms) may be one person.
ALIKE = 0.85
NEW = "new"  # the organiser's answer "someone new" to a flagged name


def loose_form(name: str) -> str:
    """The canonical form without accents, punctuation or spaces: "Zoë O'Neil" and
    "zoe oneil" meet here, though they are two names to the site."""
    decomposed = unicodedata.normalize("NFKD", canonical_name(name))
    return "".join(c for c in decomposed if c.isalnum())


@dataclass
class PastedName:
    line: int
    name: str
    player: Player | None = None  # the known player of exactly this (canonical) name
    alike: list[Player] = field(default_factory=list)  # known players it may be
    problem: str | None = None
    registered: bool = False  # registered for the tournament already

    @property
    def flagged(self) -> bool:
        return self.player is None and bool(self.alike)


def read_names(text: str, tournament: Tournament) -> list[PastedName]:
    """The pasted lines as names (blank lines skipped, a name twice kept once), each with
    its exact player, its look-alikes or what is wrong with it."""
    pasted: list[PastedName] = []
    seen: set[str] = set()
    for line, raw in enumerate(text.splitlines(), start=1):
        name = raw.strip()
        if not name:
            continue
        problem = name_problem(name)
        if problem is None and canonical_name(name) in seen:
            continue
        seen.add(canonical_name(name))
        pasted.append(PastedName(line, name, problem=problem and f"line {line}: {problem}"))
    wanted = [p for p in pasted if p.problem is None]
    known = {
        player.canonical_name: player
        for player in Player.objects.filter(
            canonical_name__in=[canonical_name(p.name) for p in wanted]
        )
    }
    entered = set(
        Registration.objects.filter(
            tournament=tournament, player__in=known.values(), dropped_after_round__isnull=True
        ).values_list("player_id", flat=True)
    )
    strangers = [p for p in wanted if canonical_name(p.name) not in known]
    loose_known = (
        [(loose_form(c), pk) for c, pk in Player.objects.values_list("canonical_name", "pk")]
        if strangers
        else []
    )
    for pasted_name in wanted:
        player = known.get(canonical_name(pasted_name.name))
        if player is not None:
            pasted_name.player = player
            pasted_name.registered = player.pk in entered
            continue
        loose = loose_form(pasted_name.name)
        alike_ids = [
            pk
            for other, pk in loose_known
            if other == loose or difflib.SequenceMatcher(None, loose, other).ratio() >= ALIKE
        ]
        pasted_name.alike = sorted(
            Player.objects.filter(pk__in=alike_ids[:5]),
            key=lambda player: sort_key(player.display_name),
        )
    return pasted


@transaction.atomic
def register_pasted(
    tournament: Tournament, pasted: list[PastedName], answers: dict[int, str]
) -> list[Registration]:
    """Register every pasted name: the known player, the look-alike the organiser chose
    (answers: line -> a player's handle, or NEW) or a new player."""
    new_names = [
        p.name
        for p in pasted
        if p.problem is None and p.player is None and (not p.flagged or answers.get(p.line) == NEW)
    ]
    created = players_for(new_names) if new_names else {}
    chosen = {
        player.handle: player
        for p in pasted
        for player in p.alike
        if answers.get(p.line) == player.handle
    }
    registrations = []
    for p in pasted:
        if p.problem is not None:
            continue
        player = p.player or created.get(p.name) or chosen.get(answers.get(p.line, ""))
        if player is not None:
            registrations.append(enter(tournament, player))
    return registrations
