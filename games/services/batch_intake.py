"""Batches sent over HTTP: the request only stores the body, a Celery task reads it.

Reading, checking and storing a 500 MB batch takes minutes, far beyond a web server's
timeout, so the request streams the body into the database (zlib-compressed pieces of about
a megabyte, `BatchPiece`) and answers at once (202). Any worker that reaches the database
can then read it: a machine added to the site needs the database's and the broker's
addresses, no shared disk. `read_batch` does what `intake.submit_batch` does in-process,
saving its position (bytes and lines read), the bad lines and the duplicates with every
group of logs it commits, so a worker killed mid-batch resumes where the last group ended:
no log is stored twice, and the SHA-256 uniqueness catches one that was anyway.

The body may come with a Content-Length or chunked (`Transfer-Encoding: chunked`, read
to its end when the server decodes it, as gunicorn does); the size and log-count limits are
checked while it streams, so a body over either stops being read at once (413).
A body that ends early (the client went away) leaves no pieces and no Upload row: the row
is created only once the whole body is stored.
"""

from __future__ import annotations

import logging
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import IO, Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from games.models import BatchPiece, BatchState, Source, Upload
from games.permissions import UploadThrottle
from games.services.dispatch import Dispatch
from games.services.intake import BATCH_CHUNK, IntakeError, TooLarge, store_chunk, take_line

logger = logging.getLogger(__name__)

# The body is read and stored in pieces of about this size: memory stays flat whatever the
# batch's size, and a piece is one row (a fifth of this or less, compressed).
RECEIVE_BYTES = 1 << 20
# Fast and still about 8x on logs: a 500 MB batch is compressed within the request's time.
PIECE_COMPRESSION = 1
# The task saves its position at least this often (lines, seconds) even when no log is
# stored (a file of bad lines), so the upload page shows progress and a crash loses little.
SAVE_EVERY_LINES = 5000
SAVE_EVERY_SECONDS = 1.0
# Pieces of a body that never became a batch (its web process was killed mid-body) are
# deleted when a later batch is stored, once they are this old.
ORPHAN_PIECES_AFTER = timedelta(hours=1)


class BodyEndedEarly(IntakeError):
    """The client sent less than its Content-Length: it went away mid-body."""


class LengthRequired(IntakeError):
    """A chunked body the server in front of Django does not decode (runserver)."""

    status = 411


@dataclass
class StoredBody:
    key: str
    size: int
    lines: int  # lines, blank ones included: at most this many logs

    def discard(self) -> None:
        BatchPiece.objects.filter(body=self.key).delete()


def is_chunked(request: HttpRequest) -> bool:
    return "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()


def chunked_body(request: HttpRequest) -> IO[bytes]:
    """The decoded body of a chunked request. Django reads a body only up to its
    Content-Length (none here: it would see an empty body), so it is read from the server's
    input, which gunicorn decodes and ends (`wsgi.input_terminated`, as werkzeug reads it).
    A server that does not say so would hand over the raw chunk framing: refused."""
    if not request.META.get("wsgi.input_terminated"):
        raise LengthRequired(
            "this server cannot read a chunked body (Transfer-Encoding: chunked): "
            "send the batch with a Content-Length"
        )
    return LineReads(request.META["wsgi.input"])


class LineReads:
    """A stream read a line at a time (at most `size` bytes): gunicorn's read(n) waits for n
    bytes, so the limits would be checked only every megabyte; a line is judged as soon as
    it has arrived. store_body still stores pieces of about a megabyte."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def read(self, size: int) -> bytes:
        return self.stream.readline(size)


def most_logs_per_batch() -> int | None:
    """The hourly upload limit (UPLOADS_PER_HOUR): a batch with more lines can never be
    accepted, so reading it stops there. None without a limit."""
    throttle = UploadThrottle()
    return throttle.num_requests if throttle.rate is not None else None


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


def store_body(
    source: IO[bytes] | Any, *, expected: int | None, max_lines: int | None = None
) -> StoredBody:
    """Store a batch's body as compressed pieces under a new key; nothing is left behind
    when this raises. Over GAMES_MAX_UPLOAD_BYTES or `max_lines` lines: 413, said as soon
    as the body passes the limit."""
    limit = settings.GAMES_MAX_UPLOAD_BYTES
    key = uuid.uuid4().hex
    size = line_breaks = number = 0
    has_content = ends_with_break = False
    buffered: list[bytes] = []
    waiting = 0
    try:
        for piece in pieces(source):
            size += len(piece)
            if size > limit:
                raise TooLarge(f"a batch is at most {limit} bytes (GAMES_MAX_UPLOAD_BYTES)")
            # Counted in C, not line by line: a 500 MB body must be stored in seconds.
            line_breaks += piece.count(b"\n")
            ends_with_break = piece.endswith(b"\n")
            has_content = has_content or bool(piece.strip())
            if max_lines is not None and line_breaks + (not ends_with_break) > max_lines:
                raise TooLarge(
                    f"a batch is at most {max_lines} logs, the hourly upload limit "
                    "(UPLOADS_PER_HOUR); this one has more: split the batch"
                )
            buffered.append(piece)
            waiting += len(piece)
            if waiting >= RECEIVE_BYTES:
                store_piece(key, number, size - waiting, b"".join(buffered))
                buffered, waiting, number = [], 0, number + 1
        if expected is not None and size < expected:
            raise BodyEndedEarly(f"the body ended after {size} of {expected} bytes")
        if not has_content:
            raise IntakeError("empty file: a batch needs at least one log")
        if buffered:
            store_piece(key, number, size - waiting, b"".join(buffered))
    except BaseException:
        BatchPiece.objects.filter(body=key).delete()
        raise
    lines = line_breaks + (0 if ends_with_break else 1)
    return StoredBody(key, size, lines)


def store_piece(key: str, number: int, start: int, data: bytes) -> None:
    BatchPiece.objects.create(
        body=key, number=number, start=start, data=zlib.compress(data, PIECE_COMPRESSION)
    )


def body_lines(key: str, position: int) -> Iterator[bytes]:
    """The stored body's lines from byte `position` (a line's start) on, each with its line
    break; one piece in memory at a time (plus a line running across pieces)."""
    first = (
        BatchPiece.objects.filter(body=key, start__lte=position)
        .order_by("-number")
        .values_list("number", "start")
        .first()
    )
    if first is None:
        return
    number, start = first
    rest = b""
    skip = position - start
    while True:
        data = (
            BatchPiece.objects.filter(body=key, number=number)
            .values_list("data", flat=True)
            .first()
        )
        if data is None:
            break
        text = rest + zlib.decompress(bytes(data))[skip:]
        skip = 0
        lines = text.split(b"\n")
        rest = lines.pop()
        for line in lines:
            yield line + b"\n"
        number += 1
    if rest:
        yield rest


def discard_orphan_pieces() -> int:
    """Delete pieces left by requests that died mid-body (no batch names them)."""
    named = Upload.objects.exclude(batch_state=BatchState.READ).values("batch_body")
    deleted, _ = (
        BatchPiece.objects.filter(created__lt=timezone.now() - ORPHAN_PIECES_AFTER)
        .exclude(body__in=named)
        .delete()
    )
    return deleted


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
                batch_body=body.key,
                bytes_total=body.size,
            )
            Dispatch().on_commit(read_batch_task, upload.pk)
    except BaseException:
        body.discard()
        raise
    discard_orphan_pieces()
    return upload


def read_batch(upload_id: int) -> None:
    """Read a stored batch from its saved position to the end, then delete its body."""
    upload = Upload.objects.filter(pk=upload_id).first()
    if upload is None or upload.batch_state == BatchState.READ:
        return
    if not BatchPiece.objects.filter(body=upload.batch_body).exists():
        logger.error("upload %s: its stored body %s is missing", upload.pk, upload.batch_body)
        finish(upload, "the stored batch is missing; send it again")
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
    for raw in body_lines(upload.batch_body, position):
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
        BatchPiece.objects.filter(body=upload.batch_body).delete()


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


# Reading a 500 MB batch takes minutes: its limit is as long as the broker lets a task run
# unacknowledged before handing it to another worker (CELERY_VISIBILITY_TIMEOUT), less a margin.
READ_BATCH_SECONDS = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] - 120


@shared_task(
    name="games.tasks.read_batch_task",
    soft_time_limit=READ_BATCH_SECONDS,
    time_limit=READ_BATCH_SECONDS + 60,
)
def read_batch_task(upload_id: int) -> None:
    """A batch stored by the request: split, check, store and queue its logs."""
    read_batch(upload_id)
