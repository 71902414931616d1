"""Fixing a table's result at the desk: enter or edit a hand result, or undo the result,
each kept as a ResultChange (who, when, before and after).

The organiser decides here, so this works on any round's table, not only the open ones (a
wrong result is often found a round later). Undoing a log's result (or replacing it by
hand) detaches the log from the table, and its game counts nowhere from then on, as a
retracted game does (games.services.removal): ratings are redone without it, statistics drop
it, and a confirmation still awaited is closed. The log and its game stay stored. Entering
the result again counts it once: by hand (standings only) or as a log sent for the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import dateformat, timezone

from confirmations.models import Review
from games.models import GameLog
from games.services.removal import set_aside_game
from players.models import Player
from tournaments.models import ResultChange, Table, TableSeat
from tournaments.services.day import DayRefused, must_run

# seat id -> (place, points): the hand result as the desk's form gives it
HandResult = Mapping[int, tuple[int, float | None]]


def place_field(seat: TableSeat) -> str:
    return f"place_{seat.pk}"


def points_field(seat: TableSeat) -> str:
    return f"points_{seat.pk}"


def hand_result_errors(seats: list[TableSeat], result: HandResult) -> dict[str, str]:
    """What is wrong with a hand result, field by field (place_<seat id>, points_<seat id>).

    Places run from 1 (best); tied players share a place and the next skips (1, 1, 3).
    Points are the game's scores, optional; where given, they must agree with the places: a
    better place never has fewer points, tied places have equal points. (An eliminated
    player, DV-8, places below every survivor whatever they scored: leave their points
    empty.)"""
    errors: dict[str, str] = {}
    size = len(seats)
    for seat in seats:
        place, _ = result[seat.pk]
        if not 1 <= place <= size:
            errors[place_field(seat)] = f"a place runs from 1 (best) to {size} at this table"
    if errors:
        return errors
    places = sorted(place for place, _ in result.values())
    expected = [places.index(place) + 1 for place in places]
    if places != expected:
        for seat in seats:
            place, _ = result[seat.pk]
            if places.index(place) + 1 != place:
                errors[place_field(seat)] = (
                    f"places {', '.join(map(str, places))} do not add up: tied players share a "
                    f"place and the next one skips (1, 1, 3); this one should be "
                    f"{places.index(place) + 1}"
                )
        return errors
    scored = [(seat, *result[seat.pk]) for seat in seats if result[seat.pk][1] is not None]
    for seat, place, points in scored:
        for other, other_place, other_points in scored:
            if other_place < place and other_points < points:
                errors[points_field(seat)] = (
                    f"{points:g} points contradict place {place}: {other.player.display_name} "
                    f"placed better ({other_place}) with fewer points ({other_points:g})"
                )
            elif other_place == place and other is not seat and other_points != points:
                errors[points_field(seat)] = (
                    f"{points:g} points contradict place {place}: {other.player.display_name} "
                    f"shares the place with {other_points:g} points"
                )
    return errors


def result_of(table: Table) -> dict[str, Any]:
    """The table's result as history keeps it; a log's with its status at that moment, so
    the history tells what the organiser saw then ("queued then, verified now")."""
    if table.log_id is not None:
        return {"log": table.log_id, "status": table.log.status}
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.seat)
    if seats and all(seat.hand_rank is not None for seat in seats):
        return {"hand": [[s.player.handle, s.hand_rank, s.hand_score] for s in seats]}
    return {}


@dataclass(frozen=True)
class ToldResult:
    """A result as the desk's history reads it: words, and the game's page for a log's."""

    text: str
    url: str = ""


def told_results(results: list[Mapping[str, Any]]) -> list[ToldResult]:
    """Results as result_of writes them, told in words in the same order: a log's by who
    sent its game and when ("the game Marina Abyss sent at 19:32, verified"), a hand result
    by its players' names ("by hand: Marina Abyss place 1, 34 points; ..."), never by a log
    id or a handle. Two queries for any number of results."""
    log_ids = {result["log"] for result in results if result.get("log")}
    logs = GameLog.objects.filter(pk__in=log_ids).select_related("upload__submitted_by__player")
    logs_by_id = {log.pk: log for log in logs}
    handles = {row[0] for result in results for row in result.get("hand") or []}
    names = dict(Player.objects.filter(handle__in=handles).values_list("handle", "display_name"))

    def told(result: Mapping[str, Any]) -> ToldResult:
        if result.get("log"):
            log = logs_by_id.get(result["log"])
            if log is None:
                return ToldResult("a game since deleted")
            return ToldResult(sent(log, result.get("status")), log.get_absolute_url())
        if result.get("hand"):
            places = [
                f"{names.get(handle, handle)} place {place}"
                + (f", {points:g} points" if points is not None else "")
                for handle, place, points in result["hand"]
            ]
            return ToldResult("by hand: " + "; ".join(places))
        return ToldResult("no result")

    return [told(result) for result in results]


def sent(log: GameLog, status_then: str | None = None) -> str:
    """A table's game told by who sent it and when: "the game Marina Abyss sent at 19:32,
    8 Dec (verified)"; by the site when nobody signed in sent it. Where history kept the
    log's status at the change and it has changed since, both: "(queued then, verified
    now)"."""
    upload = log.upload
    user = upload.submitted_by
    player = getattr(user, "player", None) if user is not None else None
    who = player.display_name if player else user.get_username() if user else "the site"
    when = dateformat.format(timezone.localtime(upload.created), "H:i, j M")
    status = log.get_status_display().lower()
    if status_then and status_then != log.status:
        then = GameLog.Status(status_then).label.lower()
        status = f"{then} then, {status} now"
    return f"the game {who} sent at {when} ({status})"


def locked(table: Table) -> Table:
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )


def set_hand_result(table: Table, result: HandResult, *, user: Any) -> ResultChange:
    """Give the table this hand result (replacing a log's or another hand result); refused
    with a DayRefused (403 not an organiser, 400 naming the fields) and nothing changed."""
    with transaction.atomic():
        table = locked(table)
        must_run(user, table.round.tournament, "enter or edit a table's result")
        seats = list(table.seats.select_related("player"))
        if set(result) != {seat.pk for seat in seats}:
            raise DayRefused(f"a result gives every seat of {table} a place, and only them", 400)
        errors = hand_result_errors(seats, result)
        if errors:
            raise DayRefused("; ".join(f"{name}: {text}" for name, text in errors.items()), 400)
        before = result_of(table)
        detach_log(table, user)
        for seat in seats:
            seat.hand_rank, seat.hand_score = result[seat.pk]
        TableSeat.objects.bulk_update(seats, ["hand_rank", "hand_score"])
        action = ResultChange.Action.EDITED if before else ResultChange.Action.ENTERED
        return ResultChange.objects.create(
            table=table, action=action, by=user, before=before, after=result_of(table)
        )


def undo_result(table: Table, *, user: Any) -> ResultChange:
    """Take the table's result away (a log is detached, a hand result cleared)."""
    with transaction.atomic():
        table = locked(table)
        must_run(user, table.round.tournament, "undo a table's result")
        before = result_of(table)
        if not before:
            raise DayRefused(f"{table} has no result to undo")
        detach_log(table, user)
        table.seats.update(hand_rank=None, hand_score=None)
        return ResultChange.objects.create(
            table=table, action=ResultChange.Action.UNDONE, by=user, before=before, after={}
        )


def detach_log(table: Table, user: Any) -> None:
    """The table's log is its result no more: its game is set aside (it counts nowhere) and
    a review still waiting for its players is closed, so no later confirmation counts it."""
    if table.log_id is None:
        return
    set_aside_game(table.log)
    Review.objects.filter(
        log_id=table.log_id, status__in=[Review.Status.PENDING, Review.Status.DISPUTED]
    ).update(
        status=Review.Status.REJECTED,
        resolved_at=timezone.now(),
        resolved_by=user,
        note=f"The result of {table} was undone at the organiser's desk.",
    )
    table.log = None
    table.save(update_fields=["log"])
