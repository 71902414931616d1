"""Workers on two machines share the work: the far one, given only the database's and the
broker's addresses, reads a batch stored from this one (its body is in the database, no
shared disk) and verifies it; cutting that machine off mid-task loses and
repeats nothing: every log still ends verified exactly once (README, "Background work"); a
database session of the machine cut off gives up its locks, even one cut off while the
server was writing to it.

The second machine is a network namespace joined to this one by a veth pair on a private /30
(10.200.x.y, only inside what the test creates, deleted afterwards); PostgreSQL and Redis are
the test's own, listening on the link's host end as well. Needs root and `ip netns`.
"""

import contextlib
import os
import random
import re
import shutil
import subprocess
import sys
import textwrap
import time
import uuid

import pytest
from fault_support import (
    FINAL,
    Stack,
    assert_each_log_verified_exactly_once,
    batch,
    running_stack,
    stop,
)
from service_support import service_missing, wait_until

pytestmark = pytest.mark.services

GOOD, BAD = 800, 10
# Recovery takes the lease (20 s) plus a sweep interval (15 s) plus the work left (README,
# "Recovery, measured"): about 30 s on a quiet machine. The deadline only stops a recovery
# that never comes from hanging the suite; a loaded machine stretches the work left.
RECOVERY_DEADLINE = 300


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


class SecondHost:
    """A network namespace with one veth link to this host: host end .1, its end .2."""

    def __init__(self) -> None:
        if os.geteuid() != 0:
            service_missing("a second host: creating a network namespace needs root")
        if not shutil.which("ip"):
            service_missing("a second host: `ip` (iproute2) is not installed")
        tag = uuid.uuid4().hex[:6]
        self.namespace, self.host_end, self.far_end = f"deepsea-{tag}", f"dsh{tag}", f"dsr{tag}"
        base = random.randrange(0, 256) << 8 | random.randrange(0, 64) << 2
        self.host_address = f"10.200.{base >> 8}.{(base & 255) + 1}"
        self.address = f"10.200.{base >> 8}.{(base & 255) + 2}"
        try:
            ip("netns", "add", self.namespace)
        except subprocess.CalledProcessError as error:
            service_missing(f"a second host: `ip netns add` failed: {error.stderr.decode()}")
        ip("link", "add", self.host_end, "type", "veth", "peer", "name", self.far_end)
        ip("link", "set", self.far_end, "netns", self.namespace)
        ip("addr", "add", f"{self.host_address}/30", "dev", self.host_end)
        ip("link", "set", self.host_end, "up")
        inside = ("netns", "exec", self.namespace, "ip")
        ip(*inside, "addr", "add", f"{self.address}/30", "dev", self.far_end)
        ip(*inside, "link", "set", self.far_end, "up")
        ip(*inside, "link", "set", "lo", "up")

    def prefix(self) -> tuple[str, ...]:
        return ("ip", "netns", "exec", self.namespace)

    def cut(self) -> None:
        """The cable pulled: no packet either way, no connection closed."""
        ip("link", "set", self.host_end, "down")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            ip("netns", "delete", self.namespace)
        with contextlib.suppress(subprocess.CalledProcessError):
            ip("link", "delete", self.host_end)


@pytest.fixture
def two_hosts(tmp_path):
    far = SecondHost()
    try:
        # The far worker stops first (running_stack): its processes keep the namespace alive.
        with running_stack(tmp_path, also_on=far.host_address) as stack:
            yield stack, far
    finally:
        far.remove()


def far_worker_busy(stack: Stack) -> bool:
    """The far worker (the only one) holds logs it claimed and has not given their verdict
    yet, with more than 100 logs still to verify. Read from the logs' states, not from its
    database sessions being active at the instant of asking: on a loaded machine a worker
    spends most of a task replaying, its session idle, and a poll could miss every query."""
    statuses = stack.statuses()
    unfinished = sum(count for status, count in statuses.items() if status not in FINAL)
    return statuses.get("verifying", 0) > 0 and unfinished > 100


def test_a_worker_on_a_second_host_shares_a_batch_and_losing_it_mid_task_loses_nothing(
    two_hosts,
):
    stack, far = two_hosts
    # Two URLs make a worker: the cache falls back to the broker's Redis, and the batch's
    # body is in the database (no shared disk: the file it was sent from is deleted).
    far_env = {
        "DATABASE_URL": stack.postgresql.url(stack.database, host=far.host_address),
        "CELERY_BROKER_URL": stack.broker.url(host=far.host_address),
        "REDIS_CACHE_URL": "",
    }
    # The batch first, then the worker: started before, it could verify the whole batch
    # while a loaded machine was still finishing the sending (a process of its own) and
    # the test never see it at work.
    stack.send_batch(batch(GOOD + BAD, BAD), "batch")
    far_worker = stack.start_worker(env=far_env, prefix=far.prefix(), loglevel="INFO")
    stack.start_beat()

    # The far worker alone until the cut: with two workers from the start, a loaded machine
    # could see the batch done before the test saw the far worker busy. The near worker,
    # started as the cable is pulled, verifies the rest.
    try:
        wait_until(
            lambda: (
                succeeded(far_worker, "read_batch_task")
                and succeeded(far_worker, "verify_logs_task")
                and far_worker_busy(stack)
            ),
            180,
            "the far worker to have read the batch, verified part of it and be verifying more",
        )
    except pytest.fail.Exception:
        print(stack.diagnosis())
        raise
    stack.start_worker()
    far.cut()
    cut_at = time.monotonic()
    held_far = stack.unfinished()

    try:
        wait_until(
            lambda: stack.all_final(GOOD + BAD),
            RECOVERY_DEADLINE,
            "every log to be final and rated after the cut",
        )
    except pytest.fail.Exception:
        print(stack.diagnosis())
        raise
    print(
        f"\nsecond host cut off with {held_far} logs unfinished: every log final "
        f"{time.monotonic() - cut_at:.1f} s after the cut"
    )
    stop(far_worker, timeout=5)
    assert_each_log_verified_exactly_once(stack, GOOD, BAD)
    assert stack.query("SELECT batch_state, lines_read FROM games_upload") == [("read", GOOD + BAD)]
    assert stack.query("SELECT count(*) FROM games_batchpiece") == [(0,)]


def succeeded(worker, task: str) -> bool:
    """The worker's log says one run of `task` succeeded."""
    return bool(re.search(rf"{task}\[[^]]+\] succeeded", worker.log_path.read_text()))


# A client on the far host that takes a lock, asks for a result far larger than the socket
# buffers and does not read it: the server blocks writing, its sent data unacknowledged.
STALLED_CLIENT = textwrap.dedent("""
    import sys, time, psycopg
    connection = psycopg.connect(sys.argv[1], autocommit=True)
    connection.execute("BEGIN")
    connection.execute("SELECT pg_advisory_xact_lock(4242)")
    connection.pgconn.send_query(b"SELECT repeat('x', 200000000)")
    print("locked", flush=True)
    time.sleep(3600)
""")


def test_a_session_cut_off_while_the_server_sends_it_a_result_gives_up_its_locks(two_hosts):
    # Neither keepalives (which wait for an idle link) nor the idle-in-transaction timeout
    # (the session is busy writing) end such a session; tcp_user_timeout does (README,
    # "Recovery, measured"; docker/compose.yaml).
    stack, far = two_hosts
    url = stack.postgresql.url(stack.database, host=far.host_address)
    client = subprocess.Popen(
        [*far.prefix(), sys.executable, "-c", STALLED_CLIENT, url],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert client.stdout.readline() == "locked\n"
        wait_until(
            lambda: (
                stack.query(
                    "SELECT wait_event FROM pg_stat_activity WHERE query LIKE 'SELECT repeat%'"
                )
                == [("ClientWrite",)]
            ),
            60,
            "the server to be blocked writing the far client's result",
        )
        far.cut()
        assert advisory_locks(stack, 4242) == 1
        seconds = wait_until(
            lambda: advisory_locks(stack, 4242) == 0, 120, "the cut-off session's lock to go"
        )
        print(f"\nthe cut-off session's lock went {seconds:.1f} s after the cut")
    finally:
        stop(client, timeout=5)


def advisory_locks(stack: Stack, key: int) -> int:
    [(count,)] = stack.query(
        f"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = {key}"
    )
    return count
