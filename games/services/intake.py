"""Bringing logs in: store each exactly as received and queue it for verification.

Only what can be judged without the rules is checked here (UTF-8, JSON, the format, a
known game, player names that cannot impersonate, and that the submitter may submit a game
with these players: games.services.submission_rights), so a bad request is refused before
anything is stored. Everything else (the
game's JSON Schema, legality, the claimed result) is the worker's replay, which gives a
rejected verdict with the engine's precise error.

The same log twice is one row: the SHA-256 column is unique, and a client that loses the
race to insert it gets the stored row back (`duplicate` is then True).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from common.database import insert_instances
from engines.core.errors import LogError, MalformedLogError
from engines.core.log import check_header, loads
from engines.registry import get_game
from games.models import GameLog, Source, Upload
from games.services.dispatch import Dispatch
from games.services.errors import IntakeError, TooLarge
from games.services.submission_rights import check_may_submit
from games.services.verification import verify_log_task, verify_logs_task
from players.names import seat_name_problems

# Logs of a batch are inserted and queued this many at a time, each group committed on its
# own so workers start verifying while the rest of the file is still being read.
BATCH_CHUNK = 500
# Logs per verification task of a batch: one message (and its overhead) for many logs, few
# enough that a worker soon frees up for a single log, whose queue is served first. A task's
# groups are verification.GROUP_SIZE logs, so this is one group. Singles' request-to-verdict
# p95 during a 4,000-log batch (benchmarks/interactive_latency.py, load 5-7): 0.45 s with
# 50, 0.44-0.73 s with 100, 1.34-1.41 s with 200 (the target is 2 s, issue 14).
VERIFY_CHUNK = 100
# Bad lines of a batch listed in Upload.line_errors (all are counted in line_error_count).
MAX_LISTED_LINE_ERRORS = 1000


def max_log_bytes() -> int:
    return settings.GAMES_MAX_LOG_BYTES


def screen(raw: bytes | str, user: Any = None, may_submit_any: bool = False) -> tuple[str, str]:
    """Check one log can be stored and replayed at all, and that `user` may submit it
    (unless the caller has already established they may submit it whoever sits in it):
    returns (text, game id)."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > max_log_bytes():
        raise TooLarge(
            f"log of {size} bytes is over the limit of {max_log_bytes()} bytes; "
            "send large batches as a .jsonl file"
        )
    try:
        if isinstance(raw, str):
            raw.encode("utf-8")  # lone surrogates cannot be stored or hashed
        log = check_header(loads(raw))
        game_id = log.get("game")
        get_game(game_id)
        refuse_bad_player_names(log)
        if not may_submit_any:
            check_may_submit(user, log)
    except UnicodeEncodeError as exc:
        raise invalid(
            MalformedLogError(f"not UTF-8: invalid character at offset {exc.start}")
        ) from None
    except LogError as exc:
        raise invalid(exc) from None
    text = raw if isinstance(raw, str) else raw.decode("utf-8")
    return text, game_id


def refuse_bad_player_names(log: dict[str, Any]) -> None:
    """Names that could pass for another player's, or are two seats' one player, are
    refused here, before anything is stored (players.names says which and why)."""
    players = log.get("players")
    if not isinstance(players, list):
        return  # the game's JSON Schema, checked by the worker, names the problem
    names = [entry.get("name") if isinstance(entry, dict) else None for entry in players]
    problem = seat_name_problems(names)
    if problem is not None:
        seat, message = problem
        error = {"kind": "invalid", "message": message, "text": message, "seat": seat}
        raise IntakeError(message, error={**error, "field": f"players[{seat}].name"})


def invalid(error: LogError) -> IntakeError:
    return IntakeError(str(error), error=error.to_dict())


def submit_log(
    raw: bytes | str,
    *,
    user: Any,
    source: str = Source.HUMAN,
    published: bool = True,
    filename: str = "",
    on_stored: Callable[[GameLog], None] | None = None,
    may_submit_any: bool = False,
) -> GameLog:
    """Store one log and queue its verification; a log already stored is returned as is.

    `may_submit_any`: the caller has checked `user` may submit this log whoever sits in
    it (tournaments, for a table's organiser). `on_stored(log)` runs in the transaction
    that stores a new log (tournaments attaches it to a table there), so the log and what
    hangs on it are committed together or not at all.
    """
    text, game_id = screen(raw, user, may_submit_any)
    digest = GameLog.digest(text)
    try:
        with transaction.atomic():
            upload = Upload.objects.create(
                submitted_by=user if user and user.is_authenticated else None,
                filename=filename[:255],
                source=source,
                published=published,
            )
            log = GameLog.objects.create(upload=upload, raw=text, sha256=digest, game_type=game_id)
            if on_stored is not None:
                on_stored(log)
            Dispatch().on_commit(verify_log_task, log.pk)
    except IntegrityError:
        log = GameLog.objects.filter(sha256=digest).first()
        if log is None:  # the constraint that failed was not the digest's
            raise
        log.duplicate = True
        return log
    log.duplicate = False
    return log


def submit_batch(
    stream: Iterable[bytes],
    *,
    user: Any,
    source: str = Source.HUMAN,
    published: bool = True,
    filename: str = "",
) -> Upload:
    """Store every good line of a JSON Lines batch, read line by line, and queue each.

    Bad lines go to `Upload.line_errors` by line number; lines already stored (here or
    earlier) go to `Upload.duplicates` with the stored log's id.
    """
    lines = numbered_lines(stream)
    first = next(lines, None)
    if first is None:
        raise IntakeError("empty file: a batch needs at least one log")
    upload = Upload.objects.create(
        submitted_by=user if user and user.is_authenticated else None,
        filename=filename[:255],
        source=source,
        published=published,
    )
    dispatch = Dispatch()
    first_line_of: dict[str, int] = {}
    chunk: list[tuple[int, str, str, str]] = []
    for number, line in prepend(first, lines):
        taken = take_line(upload, number, line, first_line_of, user)
        if taken is None:
            continue
        chunk.append(taken)
        if len(chunk) >= BATCH_CHUNK:
            store_chunk(upload, chunk, dispatch)
            chunk = []
    store_chunk(upload, chunk, dispatch)
    upload.duplicates.sort(key=lambda duplicate: duplicate["line"])
    upload.save(update_fields=["line_errors", "line_error_count", "duplicates"])
    return upload


def take_line(
    upload: Upload, number: int, line: bytes, first_line_of: dict[str, int], user: Any
) -> tuple[int, str, str, str] | None:
    """One line of a batch: (line, text, digest, game id) to store, or None when it went to
    the upload's line errors or duplicates (`first_line_of` maps digests seen to lines);
    a line `user` may not submit is a line error too."""
    try:
        text, game_id = screen(line, user)
    except IntakeError as exc:
        add_line_error(upload, number, exc.message)
        return None
    digest = GameLog.digest(text)
    if digest in first_line_of:
        upload.duplicates.append({"line": number, "same_as_line": first_line_of[digest]})
        return None
    first_line_of[digest] = number
    return number, text, digest, game_id


def add_line_error(upload: Upload, number: int, message: str) -> None:
    """Count every bad line, list the first ones: 300,000 bad lines fit in 1 MB, and a list
    that long would be rewritten each time the batch's progress is saved."""
    upload.line_error_count += 1
    if len(upload.line_errors) < MAX_LISTED_LINE_ERRORS:
        upload.line_errors.append({"line": number, "error": message})


def numbered_lines(stream: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """(line number, line without its line break) for each non-blank line."""
    for number, line in enumerate(stream, start=1):
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogatepass")
        if line.strip():
            yield number, line.rstrip(b"\r\n")


def prepend(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest


def store_chunk(upload: Upload, chunk: list[tuple[int, str, str, str]], dispatch: Dispatch) -> None:
    """Insert a group of logs, skipping those already stored (by anyone, even right now),
    and queue the new ones once the group is committed."""
    if not chunk:
        return
    with transaction.atomic():
        queued = copied(upload, chunk)
        if queued is None:
            queued = inserted_skipping_stored(upload, chunk)
        for start in range(0, len(queued), VERIFY_CHUNK):
            dispatch.on_commit(verify_logs_task, queued[start : start + VERIFY_CHUNK])


def copied(upload: Upload, chunk: list[tuple[int, str, str, str]]) -> list[int] | None:
    """The usual case: none of the logs is stored yet, and all go in at once (on PostgreSQL
    by one binary COPY: the raw logs, ~10 KB each, sent as they are rather than quoted into
    the statement). Returns their ids; None, having stored nothing, when one is stored
    already."""
    logs = [
        GameLog(upload=upload, line=number, raw=text, sha256=digest, game_type=game_id)
        for number, text, digest, game_id in chunk
    ]
    try:
        with transaction.atomic():
            insert_instances(GameLog, logs)
    except IntegrityError:  # the SHA-256 of a log stored before
        return None
    return [log.pk for log in logs]


def inserted_skipping_stored(upload: Upload, chunk: list[tuple[int, str, str, str]]) -> list[int]:
    """Insert the logs not stored yet; the others go to the upload's duplicates. Returns
    the ids of the new ones."""
    GameLog.objects.bulk_create(
        [
            GameLog(upload=upload, line=number, raw=text, sha256=digest, game_type=game_id)
            for number, text, digest, game_id in chunk
        ],
        ignore_conflicts=True,
    )
    stored = dict(
        GameLog.objects.filter(sha256__in=[digest for _, _, digest, _ in chunk]).values_list(
            "sha256", "pk"
        )
    )
    new = set(
        GameLog.objects.filter(upload=upload, line__in=[n for n, *_ in chunk]).values_list(
            "pk", flat=True
        )
    )
    queued = []
    for number, _, digest, _ in chunk:
        pk = stored[digest]
        if pk in new:
            queued.append(pk)
        else:
            upload.duplicates.append({"line": number, "log": pk})
    return queued
