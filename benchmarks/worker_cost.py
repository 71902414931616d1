"""CPU a Celery worker spends per verified log: the real task code, in this process.

A JSON Lines batch of N distinct 4-player Deep Vents logs (bot games under names dealt
from a pool of 400, as benchmarks/upload_throughput.py makes them) is stored as the web
request stores it (`batch_intake.store_body`, not timed); then, timed, what the workers do
with it: `start_batch` queues `read_batch_task`, which with no broker runs in this process
as each commit happens, as do the `verify_logs_task` parts it queues, the game_verified
receivers (statistics lines and deltas, pending ratings, confirmations), the rater and the
statistics fold. Prints CPU ms per log, database queries per log, and the ratio to
`upload_throughput.lower_bound_cpu` on the same logs in the same process (parse, replay,
compress, one COPY: what any verifier must do). The database server's CPU is not counted.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea \\
    .venv/bin/python benchmarks/worker_cost.py [--logs 1000] [--repeat 3] [--tree OTHER]

Each measurement is a fresh process on a fresh database (DATABASE_URL's name + _cost,
created and dropped: never name one in use). `--tree PATH` (repeatable) adds another
checkout of the project (e.g. `git archive main | tar -x -C /tmp/main`): the trees' runs
alternate (A B A B ...) `--repeat` times, and each tree's median and range are printed, with
the load. `--profile` prints where one run's time goes (cProfile: cumulative, then own time).
`--stages` prints, per tree, the CPU ms a log of each stage (STAGES: time.process_time around
the functions named, nested ones inside their callers' figures); unlike cProfile it leaves the
engine's many small calls at their own speed. `--group-size N` runs every tree with N logs a
verification task and a verified group (intake.VERIFY_CHUNK, verification.GROUP_SIZE).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# (module, function, label) timed by --stages; indented labels run inside the one above.
# A function is timed where it is called from (the module attribute its caller reads), and
# only in trees that have it.
STAGES = (
    ("games.services.batch_intake", "take_line", "batch read: each line's checks"),
    ("games.services.intake", "loads", "  its JSON parse"),
    ("games.services.intake", "copied", "batch read: the logs' insert"),
    ("games.services.verification", "verify_group", "verified groups"),
    ("games.services.verification", "replay_raw", "  parse and replay"),
    ("games.services.verification", "create_players_first", "  new players first"),
    ("games.services.verification", "record_together", "  the group's transaction"),
    ("games.services.verification", "store_games", "    games, seats, receivers"),
    ("games.services.verification", "player_ids_for", "      player ids"),
    ("stats.receivers", "add_games", "      statistics (add_games)"),
    ("stats.services.aggregate", "group_bands", "        bands"),
    ("stats.services.aggregate", "build_lines_of", "        building lines"),
    ("stats.services.aggregate", "save_lines", "        saving lines"),
    ("stats.services.aggregate", "built_line_sums", "        sums"),
    ("stats.services.aggregate", "insert_deltas", "        deltas"),
    ("ratings.services", "add_pending", "      ratings (pending, rater)"),
    ("confirmations.services", "open_reviews", "      reviews (open_reviews)"),
    ("stats.services.aggregate", "fold_deltas", "statistics fold (in the commits too)"),
)


def time_stages() -> dict[str, float]:
    """Wrap each of STAGES in a CPU timer; returns the seconds by label, filled as it runs.
    A stage entered again inside itself is counted once."""
    import functools
    import importlib

    totals: dict[str, float] = {}
    running: set[str] = set()

    def timed(label: str, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if label in running:
                return function(*args, **kwargs)
            running.add(label)
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                totals[label] = totals.get(label, 0.0) + time.process_time() - started
                running.discard(label)

        return wrapper

    for module_name, name, label in STAGES:
        module = importlib.import_module(module_name)
        if hasattr(module, name):
            setattr(module, name, timed(label, getattr(module, name)))
    return totals


def measure(args: argparse.Namespace) -> dict[str, float]:
    """One run, in this process, of the tree on sys.path: the figures as a dict."""
    import io

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from upload_throughput import deep_vents_logs, lower_bound_cpu

    call_command("migrate", verbosity=0)
    import deepsea.celery
    from games.models import GameLog
    from games.services.batch_intake import start_batch, store_body
    from stats.services import aggregate

    if args.group_size:
        from games.services import intake, verification

        intake.VERIFY_CHUNK = verification.GROUP_SIZE = args.group_size
    stages = time_stages() if args.stages else {}
    # What a worker does once it has started, where the tree's worker does it.
    tune = getattr(deepsea.celery, "tune_garbage_collector", None)
    if tune is not None:
        tune()
    logs = deep_vents_logs(args.logs, args.distinct, args.seed, tag="cost")
    bound = lower_bound_cpu(logs)

    body = store_body(io.BytesIO(b"\n".join(logs) + b"\n"), expected=None)
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    collecting = [0.0, 0.0]  # CPU seconds in the garbage collector, when the last pass began

    def collector(phase: str, info: dict) -> None:
        if phase == "start":
            collecting[1] = time.process_time()
        else:
            collecting[0] += time.process_time() - collecting[1]

    gc.callbacks.append(collector)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU, as measured
        profiler.enable()
    with connection.execute_wrapper(count):
        started = time.process_time()
        start_batch(body, user=None, filename="cost.jsonl")
        while aggregate.fold_deltas():
            pass
        cpu = time.process_time() - started
    if profiler is not None:
        import pstats

        profiler.disable()
        stats = pstats.Stats(profiler, stream=sys.stderr)
        stats.sort_stats("cumulative").print_stats(60)
        stats.sort_stats("tottime").print_stats(40)
    gc.callbacks.remove(collector)
    verified = GameLog.objects.filter(status=GameLog.Status.VERIFIED).count()
    if verified != args.logs:
        sys.exit(f"{verified} of {args.logs} logs verified")
    return {
        "ms_per_log": 1000 * cpu / args.logs,
        "bound_ms": 1000 * bound / args.logs,
        "queries_per_log": queries / args.logs,
        "gc_ms_per_log": 1000 * collecting[0] / args.logs,
        **{f"stage {label}": 1000 * seconds / args.logs for label, seconds in stages.items()},
    }


def child(args: argparse.Namespace) -> None:
    from bench_support import create_database, drop_database

    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL server (its database name is a prefix)")
    parts = urlsplit(base)
    url = urlunsplit(parts._replace(path=f"/{parts.path.lstrip('/')}_cost"))
    os.environ["DATABASE_URL"] = url
    os.environ.pop("CELERY_BROKER_URL", None)  # no broker: every task runs in-process
    os.environ.pop("REDIS_CACHE_URL", None)
    create_database(url)
    try:
        result = measure(args)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(url)
    print(json.dumps(result), flush=True)


def run_child(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    """One measurement of `tree`'s code in a fresh process."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(tree)]
    command += ["--logs", str(args.logs), "--seed", args.seed]
    if args.distinct:
        command += ["--distinct", str(args.distinct)]
    if args.profile:
        command.append("--profile")
    if args.stages:
        command.append("--stages")
    if args.group_size:
        command += ["--group-size", str(args.group_size)]
    env = {**os.environ, "PYTHONPATH": str(tree), "DJANGO_SETTINGS_MODULE": "deepsea.settings"}
    done = subprocess.run(command, env=env, cwd=tree, stdout=subprocess.PIPE, text=True)
    if done.returncode:
        sys.exit(f"the run of {tree} failed ({done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=2000)
    parser.add_argument(
        "--distinct", type=int, help="Games simulated (default: --logs), dealt other names."
    )
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--repeat", type=int, default=1, help="Rounds of every tree.")
    parser.add_argument(
        "--tree", action="append", default=[], type=Path, help="Another checkout to compare."
    )
    parser.add_argument("--profile", action="store_true", help="cProfile one run (stderr).")
    parser.add_argument("--stages", action="store_true", help="CPU ms a log of each of STAGES.")
    parser.add_argument(
        "--group-size", type=int, help="Logs a verification task and group (default: the tree's)."
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child is not None:
        import upload_throughput  # noqa: F401  (it puts this tree first on sys.path: undone)

        sys.path[:0] = [str(args.child.resolve()), str(HERE)]
        child(args)
        return

    from bench_support import load

    trees = [ROOT, *(tree.resolve() for tree in args.tree)]
    results: dict[Path, list[dict[str, float]]] = {tree: [] for tree in trees}
    loads = [load()]
    for round_number in range(args.repeat):
        for tree in trees:
            result = run_child(tree, args)
            results[tree].append(result)
            loads.append(load())
            print(
                f"round {round_number + 1} {tree}: {result['ms_per_log']:.2f} ms a log, "
                f"bound {result['bound_ms']:.2f} ms, {result['queries_per_log']:.2f} queries "
                f"a log, garbage collector {result['gc_ms_per_log']:.2f} ms a log "
                f"(load {loads[-1]})",
                flush=True,
            )
    print(f"{args.logs} 4-player Deep Vents logs a run, {args.repeat} round(s), CPU clock")
    for tree, runs in results.items():
        per_log = [run["ms_per_log"] for run in runs]
        ratios = [run["ms_per_log"] / run["bound_ms"] for run in runs]
        print(
            f"{tree}: CPU ms per log {spread(per_log)}; lower bound "
            f"{spread([run['bound_ms'] for run in runs])}; ratio {spread(ratios)}x; "
            f"queries per log {spread([run['queries_per_log'] for run in runs])}; of the CPU "
            f"the garbage collector's {spread([run['gc_ms_per_log'] for run in runs])} ms"
        )
        for label in (label for _, _, label in STAGES):
            figures = [run[f"stage {label}"] for run in runs if f"stage {label}" in run]
            if figures:
                print(f"  {label:<40} {spread(figures)} ms a log")
    print(f"load average before and after each run: {' | '.join(loads)} ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
