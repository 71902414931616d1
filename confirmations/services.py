"""The confirmation workflow: who must confirm a verified game, their answers, and the moment
the game starts to count.

A verified game naming claimed players other than its submitter is pending until each of
them confirms it, or until GAMES_CONFIRMATION_WINDOW_HOURS pass with nobody disputing
(silence is consent; beat's job `count_lapsed_reviews` counts those). A dispute sets the
game aside until staff accept or reject it. Guests (unclaimed names) and bots are never
asked; a tournament table's result attached by one of its organisers counts at once.

Whenever a game starts to count, `game_counted` is sent in the same transaction, so ratings,
standings and statistics move with the answer or not at all. Every answer is idempotent: the
same request twice changes nothing the second time.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from confirmations import notify
from confirmations.models import STEP_LENGTH, Confirmation, Review
from confirmations.notify import notify_players_task
from games import viewer
from games.models import Game, GameLog, Source
from games.services.table_desk import table_desk
from games.signals import game_counted
from players.models import Player
from players.names import sort_key

REASON_LENGTH = 2000


class ConfirmationError(Exception):
    """An answer that cannot be taken; `status` is the HTTP status that says why."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAsked(ConfirmationError):
    status = 403


class BadDispute(ConfirmationError):
    status = 400


def window() -> timedelta:
    return timedelta(hours=settings.GAMES_CONFIRMATION_WINDOW_HOURS)


def players_to_ask(games: list[Game]) -> dict[int, list[Player]]:
    """The claimed players of each verified game (by game id) who must confirm it (see the
    module docstring), read together. Uploads without a submitter come from the operator's
    own commands (import_logs, load_demo) and are trusted."""
    if not settings.GAMES_REQUIRE_CONFIRMATION:
        return {}
    submitted = [
        game
        for game in games
        if game.source != Source.SIMULATED and game.log.upload.submitted_by_id is not None
    ]
    # Only a tournament game has a table (verification sets the source from the desk).
    trusted_logs = table_desk().attached_by_organisers(
        [g.log for g in submitted if g.source == Source.TOURNAMENT]
    )
    trusted = {game.pk for game in submitted if game.log_id in trusted_logs}
    seated: dict[int, set[int]] = {}
    submitters: dict[int, int] = {}
    for game in submitted:
        if game.pk in trusted:
            continue
        players = {seat.player_id for seat in game.seats.all()} - {None}
        if players:
            seated[game.pk], submitters[game.pk] = players, game.log.upload.submitted_by_id
    if not seated:
        return {}
    claimed = Player.objects.filter(pk__in=set().union(*seated.values()), user__isnull=False)
    by_pk = {player.pk: player for player in claimed}
    return {
        game_id: [
            by_pk[pk]
            for pk in sorted(players)
            if pk in by_pk and by_pk[pk].user_id != submitters[game_id]
        ]
        for game_id, players in seated.items()
    }


def open_review(game: Game, group: Any = None) -> Review | None:
    """The game_verified receiver for one game (see open_reviews); its review, if any."""
    return open_reviews([game], group)[game.pk]


def open_reviews(games: list[Game], group: Any = None) -> dict[int, Review | None]:
    """Count each game at once, or ask its players first: the decisions of game_verified's
    receiver, taken for a verified group's games together, in a few queries for all.
    Returns each game's review (by game id), None when it counts without one.

    A game derived again by a reverify keeps its log's review: counting if it counted,
    set aside if it was pending, disputed or rejected.
    """
    humans = [game for game in games if game.source != Source.SIMULATED]  # bots: nobody to ask
    reviews = (
        {
            review.log_id: review
            for review in Review.objects.filter(log_id__in=[g.log_id for g in humans])
        }
        if humans
        else {}
    )
    asked = players_to_ask([game for game in humans if game.log_id not in reviews])
    now = timezone.now()
    opened = {
        game.pk: Review(log_id=game.log_id, opened_at=now, deadline=now + window())
        for game in humans
        if asked.get(game.pk)
    }
    if opened:
        Review.objects.bulk_create(opened.values())
        Confirmation.objects.bulk_create(
            Confirmation(review=opened[game_id], player=player)
            for game_id, review in opened.items()
            for player in asked[game_id]
        )
        for review in opened.values():
            notify_players_task.delay_on_commit(review.pk)
    result: dict[int, Review | None] = {}
    set_aside = []
    for game in games:
        review = result[game.pk] = reviews.get(game.log_id) or opened.get(game.pk)
        if review is None or review.status == Review.Status.COUNTED:
            game_counted.send(sender=Game, game=game, group=group)
        else:
            set_aside.append(game)
    if set_aside:
        Game.objects.filter(pk__in=[game.pk for game in set_aside]).update(counts=False)
        for game in set_aside:
            game.counts = False
    return result


def count(review: Review, because: str, by: Any = None, note: str = "") -> None:
    """The review's game counts from now on (the caller holds the review's lock)."""
    now = timezone.now()
    review.status = Review.Status.COUNTED
    review.counted_because = because
    review.resolved_at = now
    review.resolved_by = by
    review.note = note or review.note
    review.save(update_fields=["status", "counted_because", "resolved_at", "resolved_by", "note"])
    game = Game.objects.filter(log_id=review.log_id).first()
    if game is not None and not game.counts:  # none when a reverify rejected the log since
        Game.objects.filter(pk=game.pk).update(counts=True)
        game.counts = True
        game_counted.send(sender=Game, game=game)


def locked_review(log_id: int) -> Review:
    review = Review.objects.select_for_update().filter(log_id=log_id).first()
    if review is None:
        raise NotAsked("this game waits for nobody's confirmation")
    return review


def answer_of(review: Review, user: Any) -> Confirmation:
    mine = review.confirmations.filter(player__user=user).select_related("player").first()
    if mine is None:
        raise NotAsked(
            f"this game does not wait for {user.get_username()}'s confirmation: "
            "only the claimed players it names, other than its submitter, are asked"
        )
    return mine


def answer(mine: Confirmation, value: str, at_table: bool, **fields: Any) -> None:
    mine.answer = value
    mine.answered_at = timezone.now()
    mine.at_table = at_table
    for name, field_value in fields.items():
        setattr(mine, name, field_value)
    mine.save()


@transaction.atomic
def confirm(log_id: int, user: Any, at_table: bool = False) -> Confirmation:
    """`user`'s player confirms the game; the last confirmation makes it count."""
    review = locked_review(log_id)
    mine = answer_of(review, user)
    if mine.answer == Confirmation.Answer.CONFIRMED:
        return mine
    if mine.answer == Confirmation.Answer.DISPUTED:
        at = f" at “{mine.step}”" if mine.step else ""
        raise ConfirmationError(f"you disputed this game{at}; staff decide it now")
    if review.status == Review.Status.REJECTED:
        raise ConfirmationError("staff rejected this game; it counts nowhere")
    answer(mine, Confirmation.Answer.CONFIRMED, at_table)
    notify.tell_answered(user, log_id)
    still_waiting = review.confirmations.exclude(answer=Confirmation.Answer.CONFIRMED).exists()
    if review.status == Review.Status.PENDING and not still_waiting:
        count(review, Review.Reason.CONFIRMED)
    return mine


def disputed_moment(confirmation: Confirmation) -> str:
    """A dispute's step as the replay words it: the engine's words kept with the dispute,
    quoted ("“turn 7, Marina: place Yeti Crab”"), or else the replay's own count ("step 7 of
    40"), never the event's index in the log."""
    if confirmation.step:
        return f"“{confirmation.step}”"
    return f"step {confirmation.event + 1} of {viewer.count_events(confirmation.review.log.raw)}"


def checked_dispute(log: GameLog, event: Any, reason: Any) -> tuple[int, str]:
    """The event index and reason of a dispute, or BadDispute naming what is wrong."""
    events = viewer.count_events(log.raw)
    if event is None or str(event).strip() == "":
        raise BadDispute(
            f"event: step the replay to the event you contest (0 to {events - 1}) and dispute "
            "it there"
        )
    try:
        index = int(event)
    except (TypeError, ValueError):
        raise BadDispute(
            f"event must be the index of the event you contest (0 to {events - 1}), "
            f"not {str(event)[:40]!r}"
        ) from None
    if not 0 <= index < events:
        raise BadDispute(f"no event {index}: the game's log has events 0 to {events - 1}")
    reason = str(reason or "").strip()
    if not reason:
        raise BadDispute("reason: say what is wrong with the game")
    if len(reason) > REASON_LENGTH:
        raise BadDispute(f"reason: at most {REASON_LENGTH} characters, not {len(reason)}")
    return index, reason


@transaction.atomic
def dispute(
    log_id: int, user: Any, event: Any, reason: Any, at_table: bool = False
) -> Confirmation:
    """`user`'s player contests an event of the game: it counts nowhere until staff decide.
    Disputing again changes nothing (the first dispute stands)."""
    review = locked_review(log_id)
    mine = answer_of(review, user)
    if mine.answer == Confirmation.Answer.DISPUTED:
        return mine
    if mine.answer == Confirmation.Answer.CONFIRMED:
        raise ConfirmationError("you confirmed this game already")
    if review.status != Review.Status.PENDING:
        raise ConfirmationError(
            f"this game is no longer waiting for answers ({review.get_status_display()})"
        )
    index, reason = checked_dispute(review.log, event, reason)
    step = viewer.event_in_words(review.log.raw, index)[:STEP_LENGTH]
    answer(mine, Confirmation.Answer.DISPUTED, at_table, event=index, reason=reason, step=step)
    review.status = Review.Status.DISPUTED
    review.save(update_fields=["status"])
    notify.tell_answered(user, log_id)
    notify.tell_dispute_opened(review, mine)
    return mine


@transaction.atomic
def accept(review_id: int, staff: Any, note: str = "") -> Review:
    """Staff decide the game stands (disputed or still pending): it counts."""
    review = Review.objects.select_for_update().get(pk=review_id)
    if review.status in (Review.Status.PENDING, Review.Status.DISPUTED):
        count(review, Review.Reason.ACCEPTED, by=staff, note=note)
        notify.tell_decision(review)
    return review


@transaction.atomic
def reject(review_id: int, staff: Any, note: str = "") -> Review:
    """Staff set the game aside for good: it never counts. A game that counts already
    leaves only by deleting its log (which retracts it)."""
    review = Review.objects.select_for_update().get(pk=review_id)
    if review.status == Review.Status.COUNTED:
        raise ConfirmationError(f"log {review.log_id} counts already; delete the log to retract it")
    decided = review.status != Review.Status.REJECTED
    review.status = Review.Status.REJECTED
    review.resolved_at = timezone.now()
    review.resolved_by = staff
    review.note = note or review.note
    review.save(update_fields=["status", "resolved_at", "resolved_by", "note"])
    if decided:
        notify.tell_decision(review)
    return review


def count_lapsed_reviews(now: datetime | None = None) -> int:
    """Beat's job: count every pending game whose window passed without a dispute, each in
    its own transaction. Returns how many now count."""
    now = now or timezone.now()
    counted = 0
    due = Review.objects.filter(status=Review.Status.PENDING, deadline__lte=now)
    for review_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            review = (
                Review.objects.select_for_update()
                .filter(pk=review_id, status=Review.Status.PENDING, deadline__lte=now)
                .first()
            )
            if review is not None:
                count(review, Review.Reason.SILENCE)
                counted += 1
    return counted


def waiting_for(user: Any) -> QuerySet[Confirmation]:
    """What waits for `user`'s answer: their unanswered confirmations of pending games."""
    if not user.is_authenticated:
        return Confirmation.objects.none()
    return Confirmation.objects.filter(
        player__user=user,
        answer=Confirmation.Answer.WAITING,
        review__status=Review.Status.PENDING,
    )


def pending_list(user: Any) -> list[tuple[Confirmation, notify.PendingGame]]:
    """What waits for `user`, soonest due first, each with its game in words."""
    waiting = list(waiting_for(user).select_related("player").order_by("review__deadline", "pk"))
    return notify.with_descriptions(waiting)


def recent_answers(user: Any, limit: int = 20) -> list[tuple[Confirmation, notify.PendingGame]]:
    """The user's latest answers, newest first, each with its game in words (not a log id)."""
    answered = list(
        Confirmation.objects.filter(player__user=user)
        .exclude(answer=Confirmation.Answer.WAITING)
        .select_related("review")
        .order_by("-answered_at")[:limit]
    )
    return notify.with_descriptions(answered)


def review_of(log: GameLog) -> Review | None:
    return Review.objects.filter(log=log).prefetch_related("confirmations__player").first()


def still_waiting(log_ids: list[int]) -> dict[int, tuple[list[Player], datetime]]:
    """For each of these logs whose game is pending: the players who have not answered yet
    (by name) and the moment silence counts as consent. Two queries for any number of logs."""
    reviews = {
        review_id: (log_id, deadline)
        for review_id, log_id, deadline in Review.objects.filter(
            log_id__in=log_ids, status=Review.Status.PENDING
        ).values_list("pk", "log_id", "deadline")
    }
    waiting: dict[int, tuple[list[Player], datetime]] = {}
    for confirmation in Confirmation.objects.filter(
        review_id__in=reviews, answer=Confirmation.Answer.WAITING
    ).select_related("player"):
        log_id, deadline = reviews[confirmation.review_id]
        waiting.setdefault(log_id, ([], deadline))[0].append(confirmation.player)
    for players, _ in waiting.values():
        players.sort(key=lambda player: sort_key(player.display_name))
    return waiting


@shared_task(name="confirmations.tasks.count_lapsed_games_task")
def count_lapsed_games_task() -> int:
    """Periodic (celery beat): pending games nobody disputed within the window count."""
    return count_lapsed_reviews()
