"""Each table's state on the tournament day, as the desk and the players' page show it:
waiting, recording, pending confirmation, disputed, done (and rejected, when verification
refused the table's log and the organiser must undo it)."""

from __future__ import annotations

from dataclasses import dataclass

from confirmations.models import Review
from games.models import GameLog
from games.services.drafts import tables_being_recorded
from games.viewer import error_in_words, read_log
from tournaments.models import Table

WAITING = "waiting"
RECORDING = "recording"
PENDING = "pending confirmation"
DISPUTED = "disputed"
DONE = "done"
REJECTED = "rejected"


@dataclass(frozen=True)
class TableState:
    state: str
    says: str  # one line for the desk


def table_states(tables: list[Table]) -> dict[int, TableState]:
    """table id -> its state; the tables come with their seats and log (select_related
    "log"). Two queries for any number of tables."""
    log_ids = [table.log_id for table in tables if table.log_id is not None]
    reviews = dict(Review.objects.filter(log_id__in=log_ids).values_list("log_id", "status"))
    recording = tables_being_recorded([table.pk for table in tables if table.log_id is None])
    return {table.pk: state_of(table, reviews, recording) for table in tables}


def state_of(table: Table, reviews: dict[int, str], recording: set[int]) -> TableState:
    if table.log_id is None:
        seats = list(table.seats.all())
        if seats and all(seat.hand_rank is not None for seat in seats):
            return TableState(DONE, "result entered by hand (unverified)")
        if table.pk in recording:
            return TableState(RECORDING, "its game is being recorded")
        return TableState(WAITING, "waiting for a result")
    # The table's header names it: its game is "its game", told by no log number.
    log = table.log
    if log.status in (GameLog.Status.REJECTED, GameLog.Status.ERROR):
        reason = error_in_words(read_log(log.raw), log.error) or log.get_status_display()
        return TableState(REJECTED, f"its game was rejected: {reason}; undo it")
    if log.status != GameLog.Status.VERIFIED:
        return TableState(PENDING, "its game is being verified")
    review = reviews.get(log.pk)
    if review == Review.Status.DISPUTED:
        return TableState(DISPUTED, "its game is disputed: staff decide")
    if review == Review.Status.REJECTED:
        return TableState(REJECTED, "its game was rejected by staff; undo it")
    if review == Review.Status.PENDING:
        return TableState(PENDING, "its game is verified; waiting for its players to confirm")
    return TableState(DONE, "verified result")
