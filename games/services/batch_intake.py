"""Batches sent over HTTP: the request only stores the body, a Celery task reads it.

Reading, checking and storing a 500 MB batch takes minutes, far beyond a web server's
timeout, so the request streams the body into a file under GAMES_BATCH_DIR and answers at
once (202). `read_batch` then does what `intake.submit_batch` does in-process, saving its
position (bytes and lines read), the bad lines and the duplicates with every group of logs it
commits, so a worker killed mid-file resumes where the last group ended: no log is stored
twice, and the SHA-256 uniqueness catches one that was anyway.

A body that ends before its Content-Length (the client went away) leaves no file and no
Upload row: the row is created only once the whole body is on disk.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import BatchState, Source, Upload
from games.services.dispatch import Dispatch
from games.services.intake import BATCH_CHUNK, IntakeError, TooLarge, store_chunk, take_line
from games.tasks import read_batch_task

logger = logging.getLogger(__name__)

# The body is copied in pieces of this size: memory stays flat whatever the batch's size.
RECEIVE_BYTES = 1 << 20
# The task saves its position at least this often (lines, seconds) even when no log is
# stored (a file of bad lines), so the upload page shows progress and a crash loses little.
SAVE_EVERY_LINES = 5000
SAVE_EVERY_SECONDS = 1.0


class BodyEndedEarly(IntakeError):
    """The client sent less than its Content-Length: it went away mid-body."""


@dataclass
class StoredBody:
    path: Path
    size: int
    lines: int  # lines, blank ones included: at most this many logs

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


def batch_dir() -> Path:
    directory = Path(settings.GAMES_BATCH_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def pieces(source: Any) -> Iterator[bytes]:
    """The body in pieces: an uploaded file's chunks, or reads of a request stream."""
    if hasattr(source, "chunks"):
        yield from source.chunks(RECEIVE_BYTES)
        return
    while True:
        try:
            piece = source.read(RECEIVE_BYTES)
        except OSError as error:  # Django's UnreadablePostError, gunicorn's NoMoreData
            raise BodyEndedEarly(f"the request body could not be read: {error}") from None
        if not piece:
            return
        yield piece if isinstance(piece, bytes) else piece.encode("utf-8", "surrogatepass")


def store_body(source: IO[bytes] | Any, *, expected: int | None) -> StoredBody:
    """Copy a batch's body into a new file; nothing is left behind when this raises."""
    limit = settings.GAMES_MAX_UPLOAD_BYTES
    handle, name = tempfile.mkstemp(prefix="batch-", suffix=".jsonl", dir=batch_dir())
    path = Path(name)
    size = line_breaks = 0
    has_content = ends_with_break = False
    try:
        with os.fdopen(handle, "wb") as out:
            for piece in pieces(source):
                size += len(piece)
                if size > limit:
                    raise TooLarge(f"a batch is at most {limit} bytes")
                out.write(piece)
                # Counted in C, not line by line: a 500 MB body must be stored in seconds.
                line_breaks += piece.count(b"\n")
                ends_with_break = piece.endswith(b"\n")
                has_content = has_content or bool(piece.strip())
        if expected is not None and size < expected:
            raise BodyEndedEarly(f"the body ended after {size} of {expected} bytes")
        if not has_content:
            raise IntakeError("empty file: a batch needs at least one log")
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    lines = line_breaks + (0 if ends_with_break else 1)
    return StoredBody(path, size, lines)


def start_batch(
    body: StoredBody,
    *,
    user: Any,
    source: str = Source.HUMAN,
    published: bool = True,
    filename: str = "",
) -> Upload:
    """The Upload of a stored body, its reading queued once the row is committed."""
    try:
        with transaction.atomic():
            upload = Upload.objects.create(
                submitted_by=user if user and user.is_authenticated else None,
                filename=filename[:255],
                source=source,
                published=published,
                batch_state=BatchState.WAITING,
                batch_path=body.path.name,
                bytes_total=body.size,
            )
            Dispatch().on_commit(read_batch_task, upload.pk)
    except BaseException:
        body.discard()
        raise
    return upload


def read_batch(upload_id: int) -> None:
    """Read a stored batch from its saved position to the end, then delete its file."""
    upload = Upload.objects.filter(pk=upload_id).first()
    if upload is None or upload.batch_state == BatchState.READ:
        return
    path = Path(settings.GAMES_BATCH_DIR) / upload.batch_path
    if not path.exists():
        logger.error("upload %s: batch file %s is missing", upload.pk, path)
        finish(upload, "the stored batch file is missing; send it again")
        return
    Upload.objects.filter(pk=upload.pk).update(
        batch_state=BatchState.READING, batch_progress_at=timezone.now()
    )
    # Lines stored before a crash: a repeat of one of them is still "same as line N".
    first_line_of = dict(upload.logs.values_list("sha256", "line"))
    dispatch = Dispatch()
    chunk: list[tuple[int, str, str, str]] = []
    position, number = upload.bytes_read, upload.lines_read
    started = saved_at = time.monotonic()
    lines_since_save = 0
    with path.open("rb") as file:
        file.seek(position)
        for raw in file:
            position += len(raw)
            number += 1
            lines_since_save += 1
            line = raw.rstrip(b"\r\n")
            if line.strip():
                taken = take_line(upload, number, line, first_line_of, upload.submitted_by)
                if taken is not None:
                    chunk.append(taken)
            if (
                len(chunk) >= BATCH_CHUNK
                or lines_since_save >= SAVE_EVERY_LINES
                or time.monotonic() - saved_at >= SAVE_EVERY_SECONDS
            ):
                if not save_progress(upload, chunk, position, number, dispatch):
                    return
                chunk, lines_since_save, saved_at = [], 0, time.monotonic()
                if saved_at - started > read_seconds_per_task():
                    # Well inside the task's time limit, a fresh task takes over from here.
                    dispatch.send(read_batch_task, upload.pk)
                    return
    if save_progress(upload, chunk, position, number, dispatch):
        finish(upload)
        path.unlink(missing_ok=True)


def read_seconds_per_task() -> float:
    """How long one task reads before handing on to a fresh one (which then waits behind
    the verifications queued meanwhile): only the slowest machines ever get there."""
    return 0.8 * read_batch_task.soft_time_limit


def save_progress(
    upload: Upload,
    chunk: list[tuple[int, str, str, str]],
    position: int,
    number: int,
    dispatch: Dispatch,
) -> bool:
    """Commit a group of logs with the position after them; False when another run of the
    task (a redelivered message) has moved the position meanwhile, and this one must stop."""
    with transaction.atomic():
        saved = Upload.objects.select_for_update().filter(pk=upload.pk)
        if saved.values_list("bytes_read", flat=True).first() != upload.bytes_read:
            logger.warning("upload %s is being read by another task; this one stops", upload.pk)
            return False
        store_chunk(upload, chunk, dispatch)
        upload.bytes_read, upload.lines_read = position, number
        saved.update(
            batch_progress_at=timezone.now(),
            bytes_read=position,
            lines_read=number,
            line_errors=upload.line_errors,
            line_error_count=upload.line_error_count,
            duplicates=upload.duplicates,
        )
    return True


def finish(upload: Upload, problem: str | None = None) -> None:
    if problem is not None:
        upload.line_errors.append({"line": upload.lines_read, "error": problem})
        upload.line_error_count += 1
    upload.duplicates.sort(key=lambda duplicate: duplicate["line"])
    upload.batch_state = BatchState.READ
    upload.save(update_fields=["batch_state", "line_errors", "line_error_count", "duplicates"])
