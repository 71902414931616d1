"""Finding the Player a name is (created on first sight)."""

import logging
from collections import Counter
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q, QuerySet

from common.compiled import compile_once
from common.database import any_of, hold_lock
from players.models import Player
from players.names import HANDLE_LENGTH, NAME_LENGTH, canonical_name, handle_base

logger = logging.getLogger(__name__)


def free_handles(names: dict[str, str]) -> dict[str, str]:
    """A handle no player has yet for each canonical name (its name as written given)."""
    bases = {canonical: handle_base(name) for canonical, name in names.items()}
    # A name whose base is free takes the base itself, so one IN query settles most names
    # (a group of 400 new names built and sent an OR of 800 conditions: issue 25). Only a
    # base already taken, or wanted twice, needs the handles it becomes with a suffix.
    taken = set(
        Player.objects.filter(any_of("handle", set(bases.values()))).values_list(
            "handle", flat=True
        )
    )
    wanted = Counter(bases.values())
    suffixed = {base for base in wanted if base in taken or wanted[base] > 1}
    taken |= handles_with_suffix(suffixed)
    # A base that another of these names takes with a suffix ("anna" -> "anna-2") needs no
    # query of its own: its own suffixed forms ("anna-2-2") start as that name's did.
    handles = {}
    for canonical, base in bases.items():
        handle, number = base, 1
        while handle in taken:
            number += 1
            suffix = f"-{number}"
            handle = base[: HANDLE_LENGTH - len(suffix)].rstrip("-") + suffix
        taken.add(handle)
        handles[canonical] = handle
    return handles


def handles_with_suffix(bases: set[str]) -> set[str]:
    """The handles players have that these bases become with a suffix (up to "-999"; a
    long base is cut to make room for it, so only its first characters are kept)."""
    if not bases:
        return set()
    room = HANDLE_LENGTH - 4
    clashing = Q()
    for base in bases:
        if len(base) <= room:
            clashing |= Q(handle__startswith=f"{base}-")
        else:
            clashing |= Q(handle__startswith=base[:room])
    return set(Player.objects.filter(clashing).values_list("handle", flat=True))


def players_for(names: list[str]) -> dict[str, Player]:
    """The Player for each log name, matched on its canonical form and created on first
    sight. Concurrent creators meet the unique columns: the loser's insert is skipped, and
    the winner's row read back (or, when only a handle clashed, another handle tried)."""
    canonical = {name: canonical_name(name) for name in names}
    known = {
        p.canonical_name: p
        for p in Player.objects.filter(any_of("canonical_name", set(canonical.values())))
    }
    for _attempt in range(5):
        missing: dict[str, str] = {}  # canonical -> the name as first written, first met first
        for name, c in canonical.items():
            if c not in known:
                missing.setdefault(c, name)
        if not missing:
            break
        # One creator at a time, until its transaction ends: two creators of overlapping
        # names, each inserting in its own order, would otherwise each hold a name the other
        # waits for. The names go in as met, and a clashing handle's plain form to the first
        # met (free_handles), so players are numbered and named as they would be one name at
        # a time: verification creates a group's new players together, and what a group of
        # 200 creates is what four groups of 50 would (issue 25).
        hold_lock(CREATION_LOCK)
        handles = free_handles(missing)
        Player.objects.bulk_create(
            [
                Player(handle=handles[c], display_name=name.strip()[:NAME_LENGTH], canonical_name=c)
                for c, name in missing.items()
            ],
            ignore_conflicts=True,
        )
        known.update(
            (p.canonical_name, p) for p in Player.objects.filter(any_of("canonical_name", missing))
        )
    return {name: known[c] for name, c in canonical.items()}


# Taken shared by whoever stores ids it read (verification's seats and packed seat lines)
# and exclusively by a merge, until their transactions end: a merge then waits for games
# being stored under a duplicate's id to commit, so that it moves them too, and a group
# waiting for a merge reads the ids the merge left.
MERGE_LOCK = 0x6D657267
# Taken by whoever creates players (players_for), until their transaction ends: held until
# the players are committed, so that the next creator's handles see theirs (free_handles)
# and numbers its players after them. A long transaction creates none itself
# (create_missing_players): verification's groups create theirs in short ones of their own.
CREATION_LOCK = 0x6E657770


class PlayersMissing(Exception):
    """Names met with no player, by a caller that creates none in its own transaction."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(f"{len(names)} names with no player yet")
        self.names = names


def player_ids_for(names: list[str], create: bool = True) -> dict[str, int]:
    """players_for's Players by id, read without building them when none is new (a group's
    200 seats' players built as instances twice a group: issue 25). In a transaction, no
    merge moves these players until it ends (MERGE_LOCK). Without `create`, a name with no
    player raises PlayersMissing instead: creating takes CREATION_LOCK until the caller's
    transaction ends (create_missing_players says when that is too long)."""
    hold_lock(MERGE_LOCK, shared=True)
    canonical = {name: canonical_name(name) for name in names}
    wanted = set(canonical.values())
    compiled = compile_once(
        "player ids", Player, ids_of_names, {"canonical_names": ["\x00canonical name"]}
    )
    values = {"canonical_names": list(wanted)}
    known = dict(ids_of_names(**values) if compiled is None else compiled.rows(values))
    if len(known) < len(wanted):
        if not create:
            raise PlayersMissing(names)
        return {name: player.pk for name, player in players_for(names).items()}
    return {name: known[c] for name, c in canonical.items()}


def ids_of_names(canonical_names: list[str]) -> QuerySet:
    """(canonical name, player id) of the players these canonical names are: read for
    every verified group twice, so compiled once (common.compiled)."""
    return Player.objects.filter(any_of("canonical_name", canonical_names)).values_list(
        "canonical_name", "pk"
    )


def create_missing_players(names: Iterable[str]) -> None:
    """Create the players these names are not yet, in a transaction of their own when the
    caller is in none. For a caller about to store many games in one long transaction
    (verification's groups): its own player_ids_for then only reads, so two workers meeting a
    new name at once wait for each other's short insert here, not for the other's group."""
    with transaction.atomic():
        player_ids_for(list(names))  # when none is new, one read and nothing written


def log_name(player: Player) -> str:
    """The name to write in a log for this player: one that is matched back to them."""
    if canonical_name(player.display_name) == player.canonical_name:
        return player.display_name
    return player.canonical_name
