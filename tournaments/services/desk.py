"""The tournaments' side of the games/tournaments seam (games.services.table_desk): what the
upload page, the record page and the API of games ask about tables, answered here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from games.models import GameLog
from games.services.table_desk import TablePlace
from tournaments.models import Table
from tournaments.services.results import attach_log, submitter_refusal
from tournaments.services.table_recording import (
    recordable_tables,
    recording_start,
    table_named,
    table_start,
)

# Pages list at most this many tables to choose from.
OFFERED_TABLES = 200


class TournamentTableDesk:
    def open_tables(self, user: Any) -> list[tuple[int, str]]:
        return [(table.pk, str(table)) for table in recordable_tables(user)[:OFFERED_TABLES]]

    def recordable(self, user: Any) -> list[dict[str, Any]]:
        return [table_start(table) for table in recordable_tables(user)[:OFFERED_TABLES]]

    def seating(self, table_id: Any, user: Any) -> dict[str, Any]:
        return recording_start(table_id, user)

    def check(self, table_id: Any, user: Any) -> None:
        """Before a recording is finished: who may record it, and whether it is open."""
        refusal = submitter_refusal(table_named(table_id), user)
        if refusal is not None:
            raise refusal

    def attach(self, table_id: Any, raw: str | bytes, *, user: Any, filename: str) -> GameLog:
        table = table_named(table_id)
        return attach_log(table, raw, user=user, filename=filename or f"result of {table}")

    def holds(self, log: GameLog) -> bool:
        # The reverse one-to-one: no query when the log was read with select_related("table")
        # (verification reads each group's logs so), one otherwise.
        try:
            return log.table is not None
        except Table.DoesNotExist:
            return False

    def place_of(self, log: GameLog) -> TablePlace | None:
        # As holds: no query when the log was read with
        # select_related("table__round__tournament").
        try:
            table = log.table
        except Table.DoesNotExist:
            return None
        if table is None:
            return None
        return TablePlace(table.round.tournament.name, table.round.number, table.number)

    def logs_of_tournament(self, tournament_id: int) -> QuerySet:
        return Table.objects.filter(round__tournament_id=tournament_id, log__isnull=False).values(
            "log_id"
        )

    def attached_by_organisers(self, logs: list[GameLog]) -> set[int]:
        """Two queries for any number of logs, none of them loading a submitter."""
        tournament_of = dict(
            Table.objects.filter(log_id__in=[log.pk for log in logs]).values_list(
                "log_id", "round__tournament_id"
            )
        )
        if not tournament_of:
            return set()
        staff: set[int] = set()
        organising: set[tuple[int, int]] = set()
        for user_id, is_staff, tournament_id in (
            get_user_model()
            .objects.filter(pk__in={log.upload.submitted_by_id for log in logs})
            .values_list("pk", "is_staff", "organised_tournaments")
        ):
            if is_staff:
                staff.add(user_id)
            organising.add((tournament_id, user_id))
        return {
            log.pk
            for log in logs
            if log.pk in tournament_of
            and (
                (submitter := log.upload.submitted_by_id) in staff
                or (tournament_of[log.pk], submitter) in organising
            )
        }
