"""A 500 MB JSON Lines batch through a real gunicorn (one worker, its default 30 s timeout)
on a fresh SQLite file, a Redis broker and one Celery worker: how long the request takes
once the body is sent (it only stores the body), the web process's peak memory, and how long
the worker takes to read, check and store every line.

    CELERY_BROKER_URL=redis://127.0.0.1:6379/4 .venv/bin/python benchmarks/big_batch.py [MB]

The Redis database given is flushed before and after.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise LookupError("no VmHWM")


def main() -> int:
    import django

    django.setup()
    from games_support import human_log
    from web_stack import post_batch, wait_until, web_stack

    megabytes = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        print("set CELERY_BROKER_URL to a Redis database this run may flush")
        return 2
    log = human_log(seed=7)
    template = (json.dumps({**log, "meta": {"note": "copy 9999999"}}) + "\n").encode()
    line_size = len(template)
    count = megabytes * 1_000_000 // line_size

    def pieces(per_piece: int = 200):
        """The body in pieces of `per_piece` lines, made fast enough that sending it is
        bound by the server, not by this client."""
        for first in range(0, count, per_piece):
            yield b"".join(
                template.replace(b"copy 9999999", b"copy %07d" % number)
                for number in range(first, min(count, first + per_piece))
            )

    size = count * line_size
    with tempfile.TemporaryDirectory() as directory, web_stack(Path(directory), broker) as stack:
        web_pid = stack.web_worker_pid()
        # One small batch first, so the baseline includes Django and the API loaded.
        post_batch(stack, iter([template]), len(template))
        before = peak_memory_mb(web_pid)
        started = time.monotonic()
        status, headers, waited = post_batch(stack, pieces(), size)
        sending = time.monotonic() - started
        peak = peak_memory_mb(web_pid)
        print(f"batch: {count} logs, {size / 1e6:.0f} MB", flush=True)
        print(f"answer: {status} {headers.get('Location', '')}")
        print(f"sending the body took {sending:.1f} s; the answer came {waited:.2f} s after it")
        print(f"202 after {sending:.1f} s from the first byte (gunicorn's timeout: 30 s)")
        print(f"web process peak memory: {peak:.0f} MB (before the request: {before:.0f} MB)")
        if status != 202:
            return 1
        upload = int(headers["Location"].rstrip("/").rsplit("/", 1)[1])
        started = time.monotonic()
        stack.start_worker()
        wait_until(
            lambda: (
                stack.query("SELECT batch_state FROM games_upload WHERE id = ?", upload)
                == [("read",)]
            ),
            3600,
            "the batch to be read",
        )
        reading = time.monotonic() - started
        stored = stack.query("SELECT COUNT(*) FROM games_gamelog WHERE upload_id = ?", upload)[0][0]
        print(f"worker read and stored it in {reading:.0f} s: {stored} logs queued")
        print(f"({stored / reading:.0f} lines/s, {size / 1e6 / reading:.1f} MB/s)")
        return 0 if stored == count else 1


if __name__ == "__main__":
    sys.exit(main())
