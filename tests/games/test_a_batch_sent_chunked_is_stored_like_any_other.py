"""A batch sent with `Transfer-Encoding: chunked` (no Content-Length: a Python generator,
curl `-T -`) is stored and read like one with a length, through a real gunicorn; its size
and log-count limits are checked while it streams, so the 413 comes before the client has
sent the rest, and nothing is stored. A server that does not decode chunked bodies (Django's
runserver) answers 411 instead of reading an empty body."""

import http.client
import json
import socket
import subprocess
import zlib

import pytest
from games_support import human_log
from web_stack import wait_until, web_stack

LIMIT_BYTES = 300_000
LOGS_AN_HOUR = 20


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """Gunicorn and a redis-server of the module's own (the tests using it are marked
    `services`: real processes, run one at a time under pytest-xdist)."""
    directory = tmp_path_factory.mktemp("chunked")
    limits = {"GAMES_MAX_UPLOAD_BYTES": str(LIMIT_BYTES), "UPLOADS_PER_HOUR": str(LOGS_AN_HOUR)}
    with web_stack(directory, **limits) as running:
        yield running


def log_lines(*seeds: int) -> list[bytes]:
    return [(json.dumps(human_log(seed=seed)) + "\n").encode() for seed in seeds]


def stored_body(stack, upload_id: int) -> bytes:
    [(key,)] = stack.query("SELECT batch_body FROM games_upload WHERE id = ?", upload_id)
    pieces = stack.query("SELECT data FROM games_batchpiece WHERE body = ? ORDER BY number", key)
    return b"".join(zlib.decompress(data) for (data,) in pieces)


def pieces_of(stack, upload_id: int) -> int:
    [(count,)] = stack.query(
        "SELECT COUNT(*) FROM games_batchpiece WHERE body ="
        " (SELECT batch_body FROM games_upload WHERE id = ?)",
        upload_id,
    )
    return count


def pieces_of_no_upload(stack) -> int:
    """Pieces stored by a request that made no Upload (a refused one): an earlier test's
    batch may still be read by the worker meanwhile, so only these are counted."""
    [(count,)] = stack.query(
        "SELECT COUNT(*) FROM games_batchpiece WHERE body NOT IN"
        " (SELECT batch_body FROM games_upload WHERE batch_body IS NOT NULL)"
    )
    return count


def uploads(stack) -> int:
    return stack.query("SELECT COUNT(*) FROM games_upload")[0][0]


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def answer_before_the_last_chunk(stack, pieces: list[bytes]) -> tuple[int, dict]:
    """Send `pieces` as chunks but never the terminating chunk, then read the answer: a
    server that answers has judged the body while it streamed."""
    with socket.create_connection(("127.0.0.1", stack.port), timeout=30) as connection:
        connection.sendall(
            (
                "POST /api/uploads/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Token {stack.token}\r\nContent-Type: application/jsonl\r\n"
                "Transfer-Encoding: chunked\r\n\r\n"
            ).encode()
        )
        for piece in pieces:
            connection.sendall(chunk(piece))
        answer = b""
        while not complete(answer):
            received = connection.recv(65536)
            assert received, f"the connection closed before a full answer: {answer!r}"
            answer += received
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body[body.index(b"{") : body.rindex(b"}") + 1])


def complete(answer: bytes) -> bool:
    """An HTTP answer received whole: by its Content-Length, or its last chunk."""
    head, separator, body = answer.partition(b"\r\n\r\n")
    if not separator:
        return False
    for line in head.decode().split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            return len(body) >= int(value)
    return body.endswith(b"0\r\n\r\n")


@pytest.mark.services
def test_a_batch_from_a_python_generator_is_stored_whole_and_read_by_a_worker(stack):
    lines = log_lines(1, 2, 3)
    connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
    headers = {"Authorization": f"Token {stack.token}", "Content-Type": "application/jsonl"}

    # No Content-Length: http.client sends a generator chunked.
    connection.request("POST", "/api/uploads/", body=(line for line in lines), headers=headers)
    response = connection.getresponse()
    answer = json.loads(response.read())

    assert response.status == 202, answer
    assert answer["bytes_total"] == sum(map(len, lines))
    assert stored_body(stack, answer["id"]) == b"".join(lines)
    stack.start_worker()
    # The worker marks the batch read, then deletes its pieces: wait for both.
    wait_until(
        lambda: stack.query("SELECT batch_state, lines_read FROM games_upload WHERE id = ?",
                            answer["id"]) == [("read", 3)]
        and pieces_of(stack, answer["id"]) == 0,
        120,
        "the worker to read the chunked batch and delete its pieces",
    )  # fmt: skip
    assert stack.query(
        "SELECT line FROM games_gamelog WHERE upload_id = ? ORDER BY line", answer["id"]
    ) == [(1,), (2,), (3,)]


@pytest.mark.services
def test_a_batch_piped_to_curl_is_stored(stack):
    lines = log_lines(4, 5)

    sent = subprocess.run(
        ["curl", "-sS", "-T", "-", "-X", "POST", f"{stack.url}/api/uploads/",
         "-H", f"Authorization: Token {stack.token}", "-H", "Content-Type: application/jsonl"],
        input=b"".join(lines), capture_output=True, timeout=60, check=True,
    )  # fmt: skip

    answer = json.loads(sent.stdout)
    assert answer["bytes_total"] == sum(map(len, lines)), answer
    assert answer["batch_state"] in ("waiting", "reading", "read")


@pytest.mark.services
def test_a_chunked_batch_over_the_size_limit_gets_413_before_it_ends(stack):
    before = uploads(stack)
    big_lines = [b"x" * 100_000 + b"\n"] * 4  # 400 kB in four lines, over 300 kB

    status, answer = answer_before_the_last_chunk(stack, big_lines)

    assert status == 413
    assert f"at most {LIMIT_BYTES} bytes (GAMES_MAX_UPLOAD_BYTES)" in answer["detail"]
    assert uploads(stack) == before
    assert pieces_of_no_upload(stack) == 0


@pytest.mark.services
def test_a_chunked_batch_of_more_logs_than_the_hourly_limit_gets_413_before_it_ends(stack):
    before = uploads(stack)

    # Twice the limit in lines of 100 bytes: gunicorn decodes a chunked body a kilobyte at
    # a time, so the server sees the 21st line once a kilobyte past it has arrived.
    line = b"{" + b" " * 97 + b"}\n"
    status, answer = answer_before_the_last_chunk(stack, [line] * (2 * LOGS_AN_HOUR))

    assert status == 413
    assert (
        f"at most {LOGS_AN_HOUR} logs, the hourly upload limit (UPLOADS_PER_HOUR)"
        in (answer["detail"])
    )
    assert uploads(stack) == before
    assert pieces_of_no_upload(stack) == 0


@pytest.mark.django_db
def test_a_chunked_body_on_a_server_that_does_not_decode_it_gets_411(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("piper", is_staff=True))

    response = client.generic(
        "POST",
        "/api/uploads/",
        b"5\r\n{}\n\r\n0\r\n\r\n",
        content_type="application/jsonl",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )

    assert response.status_code == 411
    assert "cannot read a chunked body" in response.json()["detail"]
