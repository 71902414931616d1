"""Recordings under way, kept on the server for their recorder (games.RecordingDraft).

The Record page sends the recording (what it started from and its steps so far) after
every step, and a refused save leaves its reason on it; nothing here replays it: the steps
are the recorder's own notes until the game is saved, which replays and checks them all.
A draft goes when its game is stored (the save view) or when its recorder discards it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from engines.core.errors import LogError
from engines.registry import get_game
from games.models import RecordingDraft
from games.services.errors import IntakeError

KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")
# Far above any real game (a long 4-player Deep Vents takes about 400 steps).
MAX_STEPS = 5000
# A recorder with this many unfinished recordings discards some before starting more.
MAX_DRAFTS = 50
# The page lists this many to resume, newest first.
LISTED = 20


class DraftRefused(IntakeError):
    """A draft that cannot be kept, with the field it is about."""

    def __init__(self, message: str, *, field: str, status: int = 400) -> None:
        super().__init__(
            message, error={"kind": "invalid", "message": message, "text": message, "field": field}
        )
        self.status = status


def drafts_of(user: Any) -> QuerySet[RecordingDraft]:
    return RecordingDraft.objects.filter(recorder=user)


def tables_being_recorded(table_ids: Iterable[int]) -> set[int]:
    """Of these tournament tables, those with a recording under way: a draft with at least
    one step (a refused save keeps its draft, and the table is still being recorded)."""
    return set(
        RecordingDraft.objects.filter(table__in=list(table_ids), step_count__gt=0)
        .values_list("table", flat=True)
        .distinct()
    )


def listed_drafts(user: Any) -> list[dict[str, Any]]:
    """The recorder's unfinished recordings for the page to offer, newest first."""
    return [draft.summary() for draft in drafts_of(user).defer("steps")[:LISTED]]


def keep_draft(user: Any, data: Any) -> RecordingDraft:
    """Store (or replace) the recording `data` = {key, base, steps, refusal?, revision?} for
    `user`; DraftRefused names the field that is wrong. A copy older than the one kept (a
    lower revision, e.g. from a second tab left behind) is refused: it never overwrites."""
    if not isinstance(data, dict):
        raise DraftRefused("post a JSON object with key, base and steps", field="")
    key = checked_key(data.get("key"))
    base = data.get("base")
    game_type = checked_base(base)
    steps = data.get("steps")
    checked_steps(steps)
    refusal = data.get("refusal")
    if refusal is not None and not isinstance(refusal, dict):
        raise DraftRefused("refusal is the refused save's error object, or null", field="refusal")
    revision = data.get("revision", 0)
    if type(revision) is not int or not 0 <= revision < 2**31:
        raise DraftRefused(
            "revision is the page's count of kept steps, 0 or more", field="revision"
        )
    fields = {
        "revision": revision,
        "game_type": game_type,
        "table": base.get("table"),
        "base": base,
        "steps": steps,
        "step_count": len(steps),
    }
    if "refusal" in data:
        fields["refusal"] = refusal
    draft = drafts_of(user).filter(key=key).first()
    if draft is None:
        if drafts_of(user).count() >= MAX_DRAFTS:
            raise DraftRefused(
                f"you have {MAX_DRAFTS} unfinished recordings; save or discard some first",
                field="key",
                status=409,
            )
        return RecordingDraft.objects.create(recorder=user, key=key, **fields)
    if revision < draft.revision:
        raise DraftRefused(
            f"this recording was kept further elsewhere (revision {draft.revision}, this is "
            f"{revision}): reload the Record page to resume the newer copy",
            field="revision",
            status=409,
        )
    for name, value in fields.items():
        setattr(draft, name, value)
    draft.save()
    return draft


def note_refusal(user: Any, key: Any, error: dict[str, Any]) -> None:
    """A save of this recording was refused: keep the reason beside it."""
    if isinstance(key, str) and KEY.fullmatch(key):
        drafts_of(user).filter(key=key).update(refusal=error)


def forget_draft(user: Any, key: Any) -> int:
    """The recording's game is stored, or its recorder discards it: how many went (0, 1)."""
    if not isinstance(key, str) or not KEY.fullmatch(key):
        return 0
    deleted, _ = drafts_of(user).filter(key=key).delete()
    return deleted


def checked_key(key: Any) -> str:
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise DraftRefused(
            "key is the recording's id: 1 to 40 letters, digits, '-' or '_'", field="key"
        )
    return key


def checked_base(base: Any) -> str:
    """The game of a recording's start ({game, ruleset, players, setup, table})."""
    if not isinstance(base, dict):
        raise DraftRefused("base is the recording's start: game, players, setup", field="base")
    try:
        game = get_game(base.get("game"))
    except (LogError, TypeError, KeyError):
        raise DraftRefused(f"unknown game {base.get('game')!r}", field="base.game") from None
    players = base.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and isinstance(p.get("name"), str) for p in players
    ):
        raise DraftRefused("base.players lists {name} objects in seat order", field="base.players")
    if not isinstance(base.get("setup"), dict):
        raise DraftRefused("base.setup is an object", field="base.setup")
    label = base.get("tableLabel")
    if label is not None and (not isinstance(label, str) or len(label) > 300):
        raise DraftRefused("base.tableLabel is the table's name, as text", field="base.tableLabel")
    table = base.get("table")
    if table is not None and (type(table) is not int or not 0 < table < 2**31):
        raise DraftRefused("base.table is a table id or null", field="base.table")
    return game.id


def checked_steps(steps: Any) -> None:
    if not isinstance(steps, list):
        raise DraftRefused("steps is a list", field="steps")
    if len(steps) > MAX_STEPS:
        raise DraftRefused(f"a recording holds at most {MAX_STEPS} steps", field="steps")
    for index, step in enumerate(steps):
        if not (
            isinstance(step, dict)
            and isinstance(step.get("label"), str)
            and ("event" in step or "draw" in step)
        ):
            raise DraftRefused(
                "each step is {event, label} or {draw, label}", field=f"steps.{index}"
            )
