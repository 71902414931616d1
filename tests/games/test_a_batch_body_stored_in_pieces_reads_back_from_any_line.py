"""A batch's body is stored in the database in compressed pieces (any worker can read it,
no shared disk): read back from any line's offset, it gives the lines sent, whole, even
those that run across pieces; the pieces go once the batch is read."""

import io
from datetime import timedelta

import pytest
from batch_support import stored_bodies
from django.utils import timezone
from games_support import human_log, jsonl

from games.models import BatchPiece, BatchState, Source
from games.services import batch_intake
from games.services.batch_intake import body_lines, read_batch, start_batch, store_body

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of about 1,000 bytes: each log (a few kB) runs across several."""
    monkeypatch.setattr(batch_intake, "RECEIVE_BYTES", 1000)


def test_the_lines_read_back_from_any_line_are_those_sent(small_pieces):
    batch = jsonl(*(human_log(seed=seed) for seed in range(5)), "{not json")
    lines = batch.splitlines(keepends=True)

    body = store_body(io.BytesIO(batch), expected=None)

    assert BatchPiece.objects.filter(body=body.key).count() > len(lines)
    assert stored_bodies() == [batch]
    assert (body.size, body.lines) == (len(batch), 6)
    for first in range(len(lines)):
        offset = sum(map(len, lines[:first]))
        assert list(body_lines(body.key, offset)) == lines[first:]


def test_a_last_line_without_a_line_break_is_read_too(small_pieces):
    batch = jsonl(human_log(seed=1)) + b'{"last": true}'

    body = store_body(io.BytesIO(batch), expected=None)

    assert list(body_lines(body.key, 0))[-1] == b'{"last": true}'


def test_a_batch_in_many_pieces_is_read_whole_and_its_pieces_deleted(
    small_pieces, django_capture_on_commit_callbacks
):
    body = store_body(io.BytesIO(jsonl(*(human_log(seed=s) for s in (7, 8, 9)))), expected=None)
    upload = start_batch(body, user=None, source=Source.SIMULATED)

    with django_capture_on_commit_callbacks(execute=True):
        read_batch(upload.pk)

    upload.refresh_from_db()
    assert upload.batch_state == BatchState.READ
    assert sorted(upload.logs.values_list("line", flat=True)) == [1, 2, 3]
    assert not BatchPiece.objects.exists()


def test_a_batch_whose_body_is_gone_is_closed_saying_to_send_it_again():
    body = store_body(io.BytesIO(jsonl(human_log(seed=3))), expected=None)
    upload = start_batch(body, user=None, source=Source.SIMULATED)
    body.discard()

    read_batch(upload.pk)

    upload.refresh_from_db()
    assert upload.batch_state == BatchState.READ
    assert upload.line_errors[-1]["error"] == "the stored batch is missing; send it again"


def test_pieces_no_batch_names_are_deleted_after_an_hour_when_a_batch_is_stored():
    """A web process killed mid-body leaves pieces that no Upload names."""
    waiting = start_batch(
        store_body(io.BytesIO(jsonl(human_log(seed=1))), expected=None), user=None
    )
    orphan = store_body(io.BytesIO(jsonl(human_log(seed=2))), expected=None)
    recent = store_body(io.BytesIO(jsonl(human_log(seed=3))), expected=None)
    an_hour_ago = timezone.now() - batch_intake.ORPHAN_PIECES_AFTER - timedelta(seconds=1)
    BatchPiece.objects.exclude(body=recent.key).update(created=an_hour_ago)

    start_batch(store_body(io.BytesIO(jsonl(human_log(seed=4))), expected=None), user=None)

    kept = set(BatchPiece.objects.values_list("body", flat=True))
    assert waiting.batch_body in kept and recent.key in kept
    assert orphan.key not in kept
