"""Telling a game's submitter who must still confirm it, and for how long: "waiting for
Marina and Nemo, 47 h left", on the upload's page (where a saved recording and an upload
land) and on the game's page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone

from confirmations.models import Review
from confirmations.services import still_waiting
from games.names import names_of_logs

register = template.Library()
LISTED_LOGS = 50


def names(players: list[Any]) -> str:
    """ "Marina", "Marina and Nemo", "Coral, Marina and Nemo"."""
    shown = [player.display_name for player in players]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def time_left(deadline: datetime, now: datetime | None = None) -> str:
    """Whole hours left until silence counts as consent (rounded down, as a clock would)."""
    seconds = (deadline - (now or timezone.now())).total_seconds()
    if seconds <= 0:
        return "counts any moment now, nobody having disputed it"
    if seconds < 3600:
        return "less than an hour left"
    return f"{int(seconds // 3600)} h left"


def waiting_sentence(players: list[Any], deadline: datetime, now: datetime | None = None) -> str:
    return f"waiting for {names(players)}, {time_left(deadline, now)}"


@register.inclusion_tag("confirmations/_waiting_for.html")
def waiting_for_game(log: Any) -> dict[str, Any]:
    waiting = still_waiting([log.pk]).get(log.pk)
    return {"sentence": waiting_sentence(*waiting) if waiting else None}


@register.inclusion_tag("confirmations/_waiting_for_upload.html")
def waiting_for_upload(upload: Any) -> dict[str, Any]:
    """Each log of the upload (the first LISTED_LOGS pending ones) and who it waits for."""
    pending = upload.logs.filter(review__status=Review.Status.PENDING).order_by("pk")
    log_ids = list(pending.values_list("pk", flat=True)[:LISTED_LOGS])
    waiting = still_waiting(log_ids)
    # Named as every list names a game (the admin's too): games.names.names_of_logs.
    named = names_of_logs(log_id for log_id in log_ids if log_id in waiting)
    rows = [
        (log_id, named[log_id], waiting_sentence(*waiting[log_id]))
        for log_id in log_ids
        if log_id in waiting and log_id in named  # a log deleted meanwhile is left out
    ]
    more = pending.count() - len(log_ids) if len(log_ids) == LISTED_LOGS else 0
    return {"rows": rows, "more": more}
