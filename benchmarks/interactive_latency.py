"""Interactive latency: single Deep Vents logs POSTed over HTTP to gunicorn one at a time
while a big batch is being verified, each timed from the start of its request to its
verdict (the interactive queue, served first: deepsea/settings.py, CELERY_TASK_QUEUES).

Prints the median, 95th percentile and worst of those times with the batch in flight, and
the same for single logs on the idle stack just before (the anchor), and how far the batch
had got. The stack is benchmarks/upload_throughput.py's (a database of its own, gunicorn,
Celery workers on the real queues of the Redis database given, purged first).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/9 \\
    .venv/bin/python benchmarks/interactive_latency.py [--batch 10000] [--singles 100]

Target (issue 14): p95 under 2 s while a 10,000-log batch is verified by 2 workers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench_support import wait_for
from upload_throughput import (
    FINAL,
    add_stack_arguments,
    deep_vents_logs,
    p95,
    running_stack,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=10_000, help="Logs in the batch.")
    parser.add_argument("--singles", type=int, default=100, help="Most single logs posted.")
    parser.add_argument("--idle", type=int, default=20, help="Single logs before the batch.")
    parser.add_argument("--pause", type=float, default=0.2, help="Seconds between singles.")
    parser.add_argument("--distinct", type=int, help="Games simulated (default: all).")
    parser.add_argument("--seed", default="bench")
    add_stack_arguments(parser)
    args = parser.parse_args()

    batch = b"\n".join(deep_vents_logs(args.batch, args.distinct, args.seed, "batch")) + b"\n"
    singles = iter(deep_vents_logs(args.idle + args.singles, args.distinct, args.seed, "solo"))
    with running_stack(args) as stack:
        from games.models import GameLog

        def post_and_wait() -> float:
            """Seconds from the start of a single log's request to its verdict."""
            started_at = time.time()
            status, answer = stack.post("/api/logs/", next(singles), "application/json")
            assert status == 201, answer
            log = GameLog.objects.filter(pk=answer["id"])
            wait_for(lambda: log.filter(status__in=FINAL).exists(), 600, "a single's verdict")
            return log.values_list("verified_at", flat=True)[0].timestamp() - started_at

        idle = [post_and_wait() for _ in range(args.idle)]
        status, answer = stack.post("/api/uploads/", batch, "application/jsonl")
        assert status == 202, answer
        batch_logs = GameLog.objects.filter(upload_id=answer["id"])
        busy = []
        while len(busy) < args.singles:
            done = batch_logs.filter(status__in=FINAL).count()
            if done == args.batch:
                break
            busy.append(post_and_wait())
            time.sleep(args.pause)
        done = batch_logs.filter(status__in=FINAL).count()
        wait_for(lambda: batch_logs.filter(status__in=FINAL).count() == args.batch, 3600, "batch")

    load = os.getloadavg()
    for name, times in (("idle stack", idle), (f"during the {args.batch}-log batch", busy)):
        if times:
            print(
                f"single log, request start to verdict, {name}: median "
                f"{statistics.median(times):.2f} s, p95 {p95(times):.2f} s, worst "
                f"{max(times):.2f} s ({len(times)} logs)"
            )
    print(f"the batch had {done} of {args.batch} verdicts when the last single was verified")
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
