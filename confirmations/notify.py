"""What a pending game is, in words a player recognises, and the notices the confirmation
workflow sends (through notices.services, the one place that tells people things): a game to
confirm, a dispute opened, staff's decision.

A pending game is told with everything needed to answer it: the game, when and where it was
played (tournament round and table), each seat's name and score, the result, who submitted
it and how long until silence counts as consent."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse

from confirmations.models import Confirmation, Review
from engines.registry import title_of
from games.models import GameLog
from games.names import game_name
from games.services.table_desk import table_desk
from notices import services as notices
from notices.models import Kind


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    score: float
    rank: int
    winner: bool

    @property
    def points(self) -> str:
        return f"{self.score:g}"


@dataclass(frozen=True)
class PendingGame:
    """A game waiting for confirmation, as a player is shown it."""

    log_id: int
    name: str
    title: str
    played_at: datetime | None
    where: str
    seats: list[Seat]
    submitter: str
    deadline: datetime
    url: str

    @property
    def result(self) -> str:
        winners = [seat for seat in self.seats if seat.winner]
        if not winners:
            return "no result"
        if len(winners) == 1:
            return f"{winners[0].name} won with {winners[0].points}"
        names = ", ".join(seat.name for seat in winners[:-1]) + f" and {winners[-1].name}"
        return f"{names} shared the win with {winners[0].points}"

    @property
    def time_left(self) -> str:
        return notices.hours_left(self.deadline)


DESCRIBED = (
    "log__game",
    "log__upload__submitted_by__player",
    "log__table__round__tournament",
)


def submitter_of(log: GameLog) -> str:
    user = log.upload.submitted_by
    if user is None:
        return "an upload without an account"
    player = getattr(user, "player", None)
    name = player.display_name if player is not None else user.get_username()
    return f"{name} (staff)" if user.is_staff and player is None else name


def where_played(log: GameLog) -> str:
    """The tournament table the game was played at, worded as every page words a place
    (TablePlace: "Club Night · round 1 · table 1"); "" for a game played at no table."""
    place = table_desk().place_of(log)
    return "" if place is None else str(place)


def describe(review: Review) -> PendingGame:
    """`review`'s game in words (load it with DESCRIBED and its game's seats, as
    describe_all does, to keep this free of queries)."""
    log = review.log
    game = getattr(log, "game", None)
    seats = list(game.seats.all()) if game is not None else []
    title = title_of(log.game_type)
    return PendingGame(
        log_id=log.pk,
        # A reverify may have rejected the log since: no game left to name but its kind.
        name=game_name(game) if game is not None else title,
        title=title,
        played_at=game.played_at if game is not None else None,
        where=where_played(log),
        seats=[Seat(s.seat, s.name, s.score, s.rank, s.winner) for s in seats],
        submitter=submitter_of(log),
        deadline=review.deadline,
        url=reverse("games:log", args=[log.pk]),
    )


def described(reviews: Iterable[int]) -> dict[int, PendingGame]:
    """The pending games of these reviews (by review id), in four queries for any number."""
    loaded = (
        Review.objects.filter(pk__in=list(reviews))
        .select_related(*DESCRIBED)
        .prefetch_related("log__game__seats")
    )
    return {review.pk: describe(review) for review in loaded}


def with_descriptions(confirmations: list[Confirmation]) -> list[tuple[Confirmation, PendingGame]]:
    games = described(c.review_id for c in confirmations)
    return [(c, games[c.review_id]) for c in confirmations]


def tell_players_asked(review_id: int) -> int:
    """A notice to each player asked to confirm the game (e-mailed per their preference);
    returns how many were told."""
    review = Review.objects.filter(pk=review_id).first()
    if review is None or review.status != Review.Status.PENDING:
        return 0
    game = described([review_id])[review_id]
    waiting = review.confirmations.filter(answer=Confirmation.Answer.WAITING).select_related(
        "player__user"
    )
    told = 0
    for confirmation in waiting:
        context = {"player": confirmation.player, "game": game}
        told += (
            notices.notify(
                confirmation.player.user,
                Kind.CONFIRM,
                render_to_string("confirmations/email/ask_subject.txt", context).strip(),
                render_to_string("confirmations/email/ask_body.txt", context),
                url=asking_url(review.log_id),
                due_at=review.deadline,
            )
            is not None
        )
    return told


def asking_url(log_id: int) -> str:
    """Where a notice asking to confirm a game leads: the game's confirmation box."""
    return reverse("games:log", args=[log_id]) + "#confirmation"


def tell_answered(user: Any, log_id: int) -> None:
    """`user` answered for their player: their notice asking for it is read."""
    notices.mark_read_about(user, Kind.CONFIRM, asking_url(log_id))


def players_and_submitter(review: Review) -> Any:
    """The users concerned by a review's outcome: the players asked and the submitter."""
    return (
        get_user_model()
        .objects.filter(
            Q(player__confirmations__review=review) | Q(uploads__logs__review=review),
            is_active=True,
        )
        .distinct()
    )


def deciders(review: Review) -> Any:
    """Who decides a dispute: superusers, staff who organise no tournament (the site's
    moderators), and the organisers of the game's own tournament."""
    return (
        get_user_model()
        .objects.filter(
            Q(is_superuser=True)
            | Q(is_staff=True, organised_tournaments__isnull=True)
            | Q(organised_tournaments__rounds__tables__log=review.log_id),
            is_active=True,
        )
        .distinct()
    )


def tell_dispute_opened(review: Review, dispute: Confirmation) -> None:
    """Run inside the dispute's transaction: the notices exist if and only if it does. What
    players read names the game and the step in words, never an event index."""
    game = described([review.pk])[review.pk]
    by = dispute.player.display_name
    step = dispute.step
    subject = f"{by} disputes " + (f"“{step}” in {game.name}" if step else game.name)
    body = (
        f"{by} disputes {f'“{step}”' if step else 'the game'}: “{dispute.reason}”. The game "
        "counts nowhere until staff decide."
    )
    moment = f"{game.url}#event-{dispute.event}"
    admin_url = reverse("admin:confirmations_review_change", args=[review.pk])
    told = set()
    for user in deciders(review):
        notices.notify(user, Kind.DISPUTE, subject, body + " Decide it in the review.", admin_url)
        told.add(user.pk)
    for user in players_and_submitter(review):
        if user.pk not in told and user.pk != dispute.player.user_id:
            notices.notify(user, Kind.DISPUTE, subject, body, moment)


def tell_decision(review: Review) -> None:
    """Staff decided a pending or disputed game: everyone it concerns hears how."""
    game = described([review.pk])[review.pk]
    if review.status == Review.Status.COUNTED:
        subject = f"It counts: staff accepted {game.name}"
    else:
        subject = f"It counts nowhere: staff rejected {game.name}"
    body = f"Staff's note: {review.note}" if review.note else ""
    for user in players_and_submitter(review):
        if user.pk != review.resolved_by_id:
            notices.notify(user, Kind.DISPUTE_DECIDED, subject, body, game.url + "#confirmation")


@shared_task(name="confirmations.tasks.notify_players_task")
def notify_players_task(review_id: int) -> int:
    """Tell the players asked to confirm a game (a notice each; e-mail per their preference)."""
    return tell_players_asked(review_id)
