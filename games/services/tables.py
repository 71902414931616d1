"""The link between a GameLog and the tournament table it is the result of
(tournaments.Table.log, a nullable one-to-one; reverse name `table`)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from games.models import GameLog
from tournaments.models import Table


def table_of(log: GameLog) -> Table | None:
    """The table whose result this log is, if any."""
    try:
        return log.table
    except ObjectDoesNotExist:
        return None


def table_has_log(table: Table) -> bool:
    return table.log_id is not None


def attach(log: GameLog, table: Table) -> None:
    """Make the log this table's result (the caller checked the table is free)."""
    table.log = log
    table.save(update_fields=["log"])
