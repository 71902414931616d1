"""A big batch through a real gunicorn (its default 30 s timeout), a Redis broker and a
Celery worker: the request only stores the body and answers 202 at once; the worker then
reads it to the end. A client that goes away mid-body leaves no Upload row and no stored piece.
benchmarks/big_batch.py runs the same with 500 MB and prints its figures."""

import json
import socket

import pytest
from games_support import human_log
from web_stack import post_batch, wait_until, web_stack

pytestmark = pytest.mark.services

LOGS = 4000  # about 23 MB


def distinct_lines(count: int):
    """`count` different logs: one game, each copy with its own note (the digest differs)."""
    log = human_log(seed=7)
    for number in range(count):
        log["meta"] = {"note": f"copy {number}"}
        yield (json.dumps(log) + "\n").encode()


def stored_pieces(stack) -> int:
    return stack.query("SELECT COUNT(*) FROM games_batchpiece")[0][0]


@pytest.fixture
def stack(tmp_path):
    with web_stack(tmp_path) as running:
        yield running


def test_a_big_batch_gets_202_at_once_and_the_worker_reads_it_all(stack):
    lines = list(distinct_lines(LOGS))
    size = sum(len(line) for line in lines)

    status, headers, waited = post_batch(stack, iter(lines), size)

    assert status == 202
    assert waited < 10  # nothing but the body's storing happened in the request
    upload_id = int(headers["Location"].rstrip("/").rsplit("/", 1)[1])
    assert stack.query("SELECT batch_state FROM games_upload WHERE id = ?", upload_id) == [
        ("waiting",)
    ]
    stack.start_worker()
    wait_until(
        lambda: (
            stack.query("SELECT batch_state FROM games_upload WHERE id = ?", upload_id)
            == [("read",)]
        ),
        240,
        "the worker to read the batch",
    )
    assert stack.query(
        "SELECT bytes_read, lines_read FROM games_upload WHERE id = ?", upload_id
    ) == [(size, LOGS)]
    assert stack.query("SELECT COUNT(*) FROM games_gamelog WHERE upload_id = ?", upload_id) == [
        (LOGS,)
    ]
    assert stack.query("SELECT COUNT(*) FROM games_batchpiece") == [(0,)]  # read, deleted


def test_a_client_that_goes_away_mid_body_leaves_nothing_stored(stack):
    with socket.create_connection(("127.0.0.1", stack.port)) as connection:
        connection.sendall(
            (
                "POST /api/uploads/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Token {stack.token}\r\nContent-Type: application/jsonl\r\n"
                "Content-Length: 50000000\r\n\r\n"
            ).encode()
        )
        for line in distinct_lines(500):  # over a megabyte: a piece is stored
            connection.sendall(line)
        wait_until(lambda: stored_pieces(stack), 30, "the body's first piece")

    wait_until(lambda: not stored_pieces(stack), 30, "the pieces to go")
    assert stack.query("SELECT COUNT(*) FROM games_upload") == [(0,)]
