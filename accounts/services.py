"""One player identity per user: a signed-in user claims the player name they play under.

`Player.user` is a one-to-one field, so a user has at most one player and a player at most
one user (the database refuses a second). A name nobody played under yet is claimed at once.
A name with a history (verified games, ratings or tournament entries) is somebody's record:
claiming it opens a `ClaimRequest`, which staff (the "change claim request" permission) or an
organiser of a tournament that name played in approve or refuse (players.claims says who).
Meanwhile the account plays under a name of its own, whose games are merged into the claimed
name on approval (the staff merge, `players.merge`). Nobody decides their own request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import ClaimRequest
from games.models import Game
from players import claims
from players.merge import merge_players
from players.models import Player
from players.names import NAME_LENGTH, canonical_name, name_problem
from players.services import players_for
from players.signals import claim_decided, claim_requested
from tournaments.models import Tournament

NOTE_LENGTH = 2000


class ClaimRefused(Exception):
    """A claim or a decision that cannot be taken; `status` is the HTTP status saying why."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NotAllowed(ClaimRefused):
    status = 403


@dataclass
class Claimed:
    """What a claim did: the name the account plays under now, and the request it opened
    when the name asked for has a history (None when it was claimed at once)."""

    player: Player
    request: ClaimRequest | None = None


def has_history(player: Player) -> bool:
    """Verified games, ratings or tournament entries under this name (reverse relations of
    the apps that record them)."""
    return (
        player.seats.exists()
        or player.ratings.exists()
        or player.registrations.exists()
        or player.table_seats.exists()
    )


def open_request(user: Any) -> ClaimRequest | None:
    return (
        ClaimRequest.objects.filter(user=user, decided_at__isnull=True)
        .select_related("player", "interim")
        .first()
    )


def checked_name(name: str, field: str = "name") -> str:
    name = name.strip()
    if not name:
        raise ClaimRefused(f"{field}: write the name you play under")
    if problem := name_problem(name):
        raise ClaimRefused(f"{field}: {problem}")
    return name


def claim(user: Any, name: str, interim_name: str = "") -> Claimed:
    """Claim the name `name` for `user`: at once when nobody played under it (created when
    new), else as a request, the account playing meanwhile under its own name (`interim_name`
    if given, else the name with a number, "Sam Smoker (2)")."""
    name = checked_name(name)
    if (waiting := open_request(user)) is not None:
        raise ClaimRefused(
            f"you asked for {waiting.player.display_name} on "
            f"{waiting.created:%Y-%m-%d}; wait for the answer before asking for another name"
        )
    mine = Player.objects.filter(user=user).first()
    player = Player.objects.filter(canonical_name=canonical_name(name)).first()
    if player is not None and player.user_id == getattr(user, "pk", None):
        raise ClaimRefused(f"{player.display_name} (@{player.handle}) is yours already")
    if player is not None and player.user_id is not None:
        raise ClaimRefused(
            f"{player.display_name} (@{player.handle}) is claimed by another account; if that "
            "name is yours, ask staff to reassign it"
        )
    if player is not None and has_history(player):
        return Claimed(*ask_for(user, player, mine, interim_name))
    if mine is not None:
        raise ClaimRefused(
            f"you play as {mine.display_name} (@{mine.handle}) already; staff can reassign a name"
        )
    return Claimed(take(user, player or players_for([name])[name]))


def take(user: Any, player: Player) -> Player:
    """Make a name without history `user`'s, unless another account was quicker."""
    try:
        with transaction.atomic():
            taken = not Player.objects.filter(pk=player.pk, user__isnull=True).update(
                user=user, claimed_at=timezone.now()
            )
    except IntegrityError:  # this user claimed another name meanwhile (Player.user is unique)
        raise ClaimRefused("you claimed another name meanwhile", status=409) from None
    if taken:
        raise ClaimRefused(
            f"{player.display_name} (@{player.handle}) was just claimed by another account",
            status=409,
        )
    player.refresh_from_db()
    return player


def ask_for(
    user: Any, player: Player, mine: Player | None, interim_name: str
) -> tuple[Player, ClaimRequest]:
    """Open the request; the account keeps its own name, or gets one, meanwhile."""
    interim = mine or take(user, interim_player(player, interim_name))
    try:
        with transaction.atomic():
            request = ClaimRequest.objects.create(user=user, player=player, interim=interim)
            claim_requested.send(sender=ClaimRequest, claim=request)
    except IntegrityError:  # a second request of this account, sent at the same moment
        raise ClaimRefused("you asked for a name meanwhile; wait for the answer", 409) from None
    return interim, request


def interim_player(wanted: Player, interim_name: str) -> Player:
    """The name to play under while the request waits: the one typed (new, or nobody's and
    without history), else the name asked for with the first free number."""
    if interim_name.strip():
        name = checked_name(interim_name, "meanwhile")
        existing = Player.objects.filter(canonical_name=canonical_name(name)).first()
        if existing is not None and (existing.user_id is not None or has_history(existing)):
            raise ClaimRefused(
                f"meanwhile: {existing.display_name} is somebody's name; pick a new one"
            )
        return existing or players_for([name])[name]
    number = 2
    while True:
        suffix = f" ({number})"
        name = wanted.display_name[: NAME_LENGTH - len(suffix)].rstrip() + suffix
        if not Player.objects.filter(canonical_name=canonical_name(name)).exists():
            return players_for([name])[name]
        number += 1


def tournaments_of(player: Player) -> QuerySet[Tournament]:
    """The tournaments this name played in: entered, seated, or in a table's game (the
    paths players.claims.PLAYED_IN says)."""
    tournaments = Tournament.objects.all()
    return tournaments.filter(claims.played_in(tournaments, player))


def decidable_by(user: Any) -> QuerySet[ClaimRequest]:
    """The open requests `user` may decide (players.claims), oldest first."""
    waiting = ClaimRequest.objects.filter(decided_at__isnull=True)
    return (
        claims.decidable(user, waiting)
        .select_related("user", "player", "interim")
        .order_by("created", "pk")
    )


def games_of(player: Player | None, limit: int = 10) -> tuple[int, list[Game]]:
    """How many verified games a name has, and its latest ones, for an approver to judge."""
    if player is None:
        return 0, []
    games = Game.objects.filter(seats__player=player)
    latest = list(
        # Read so that naming each (games.names.game_name) asks nothing more.
        games.select_related("log__table__round__tournament")
        .prefetch_related("seats")
        .order_by("-played_at", "-pk")[:limit]
    )
    return games.count(), latest


def locked(request_id: int, by: Any) -> ClaimRequest:
    request = (
        ClaimRequest.objects.select_for_update()
        .select_related("player", "user")
        .filter(pk=request_id)
        .first()
    )
    if request is None:
        raise ClaimRefused(f"no claim request {request_id}", status=404)
    if not claims.may_decide(by, request):
        raise NotAllowed(
            f"you may not decide the claim of {request.player.display_name}: staff or an "
            "organiser of a tournament it played in decide, and never the account asking"
        )
    if not request.is_open:
        raise ClaimRefused(
            f"the claim of {request.player.display_name} was {request.outcome} already "
            f"on {request.decided_at:%Y-%m-%d %H:%M}",
            status=409,
        )
    return request


def checked_note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise ClaimRefused(f"note: at most {NOTE_LENGTH} characters, not {len(note)}")
    return note


@transaction.atomic
def approve(request_id: int, by: Any, note: str = "") -> ClaimRequest:
    """The account gets the name: the name it played under meanwhile is merged into it
    (games, seats, entries, ratings recomputed), and other requests for it are refused."""
    note = checked_note(note)
    request = locked(request_id, by)
    player = Player.objects.select_for_update().get(pk=request.player_id)
    if player.user_id is not None:
        raise ClaimRefused(f"{player} was claimed by another account meanwhile", status=409)
    playing_as = Player.objects.filter(user=request.user_id).first()
    if playing_as is not None:
        merge_names(player, playing_as)
        player.refresh_from_db()
    if player.user_id is None:
        player.user_id = request.user_id
        player.save(update_fields=["user"])
    decide(request, True, by, note)
    for rival in ClaimRequest.objects.select_for_update().filter(
        player=player, decided_at__isnull=True
    ):
        decide(rival, False, by, f"{player.display_name} went to another account")
    return request


@transaction.atomic
def refuse(request_id: int, by: Any, note: str = "") -> ClaimRequest:
    """The account keeps playing under the name it has; the name asked for stays unclaimed."""
    note = checked_note(note)
    request = locked(request_id, by)
    decide(request, False, by, note)
    return request


def decide(request: ClaimRequest, approved: bool, by: Any, note: str) -> None:
    request.approved = approved
    request.decided_by = by
    request.decided_at = timezone.now()
    request.note = note
    request.save(update_fields=["approved", "decided_by", "decided_at", "note"])
    claim_decided.send(sender=ClaimRequest, claim=request, approved=approved, decided_by=by)


def merge_names(claimed: Player, interim: Player) -> None:
    """The staff merge, with the interim name's pending confirmations moving along (the
    merge deletes the interim player, which would take its confirmations with it). Two names
    that sat at one game or one table are two people: refused."""
    together = Game.objects.filter(seats__player=claimed).filter(seats__player=interim).first()
    if together is None and claimed.table_seats.filter(table__seats__player=interim).exists():
        together = "a tournament table"
    if together is not None:
        where = f"the game “{together}”" if isinstance(together, Game) else together
        raise ClaimRefused(
            f"{interim.display_name} and {claimed.display_name} sat at {where} together: "
            "they are two people",
            status=409,
        )
    interim.confirmations.exclude(review__confirmations__player=claimed).update(player=claimed)
    try:
        merge_players(claimed, [interim])
    except ValidationError as error:
        raise ClaimRefused(" ".join(error.messages), status=409) from None
