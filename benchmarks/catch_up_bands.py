"""What banding again costs a ratings catch-up (stats.services.rebanding).

Verifies --games 4-player Deep Vents games among --players players, in played order, an
hour apart (not timed). Then, --runs times each and paired ABAB, one old game among four of
them, older than every other, verified alone: the rater redoes every game after it (the
catch-up, inline: no broker), each run rolled back so every run sees the same database. "A"
bands again what the catch-up moved (ratings.signals.elo_going_in_moved connected), "B" does
not (the rater still reads and compares the Elo going in: against the code before, time
ratings.services.replay in both checkouts). Prints per run the catch-up's wall and this
process's CPU (the database's is the rest), the games rated and banded again, and the time
reading the old Elo going in (ratings.services.elo_going_in) and banding again take;
medians, ranges and `uptime`'s load.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea_review_catchup \\
        .venv/bin/python benchmarks/catch_up_bands.py [--games 3000] [--players 40] [--elo-k 400]

The database named is dropped and created again (bench_support.create_database), and dropped
at the end. About a minute and a half on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_support import create_database, drop_database, load

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
FIRST = datetime(2026, 1, 1, tzinfo=UTC)


class Timed:
    """Wraps a function, adding up the wall and CPU time spent in it."""

    def __init__(self, module, name: str) -> None:
        self.module, self.name, self.original = module, name, getattr(module, name)
        self.wall = self.cpu = 0.0
        self.result = None
        setattr(module, name, self)

    def __call__(self, *args, **kwargs):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            self.result = self.original(*args, **kwargs)
            return self.result
        finally:
            self.wall += time.perf_counter() - wall
            self.cpu += time.process_time() - cpu


def stored_log(names: list[str], seed: int, played_at: datetime) -> int:
    from ratings_support import deep_vents_log

    from games.models import GameLog, Upload

    raw = json.dumps(deep_vents_log(names, seed, played_at))
    return GameLog.objects.create(
        upload=Upload.objects.create(), raw=raw, sha256=GameLog.digest(raw), game_type="deep-vents"
    ).pk


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--elo-k", type=float, help="RATINGS_ELO_K (larger: more bands move)")
    args = parser.parse_args()
    os.environ.pop("CELERY_BROKER_URL", None)  # no broker: the rater runs inline
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")
    url = os.environ["DATABASE_URL"]
    create_database(url)
    import django

    django.setup()
    if args.elo_k:
        from django.conf import settings

        settings.RATINGS_ELO_K = args.elo_k
    from django.core.management import call_command
    from django.db import transaction

    from games.services import verification
    from ratings import services
    from ratings.signals import elo_going_in_moved
    from stats import receivers
    from stats.services import rebanding

    call_command("migrate", verbosity=0)
    rng = random.Random(7)
    names = [f"player {number}" for number in range(args.players)]
    logs = [
        stored_log(rng.sample(names, 4), seed, FIRST + timedelta(hours=seed))
        for seed in range(args.games)
    ]
    for start in range(0, len(logs), 500):
        verification.verify_logs(logs[start : start + 500])
    print(f"{args.games} games verified; load {load()}")
    reading = Timed(services, "elo_going_in")
    replaying = Timed(services, "replay")
    banding = Timed(rebanding, "reband")
    banded = []
    counting = rebanding.reband

    def counted(*given, **kwargs):
        banded.append(counting(*given, **kwargs))
        return banded[-1]

    rebanding.reband = counted
    receivers.reband = counted
    figures: dict[str, list[tuple[float, float]]] = {"A": [], "B": []}
    for run in range(args.runs):
        for arm in ("A", "B"):
            if arm == "B":
                elo_going_in_moved.disconnect(dispatch_uid="stats.bands")
            banded.clear()
            reading.wall = reading.cpu = banding.wall = banding.cpu = 0.0
            wall, cpu = time.perf_counter(), time.process_time()
            with transaction.atomic():
                old = stored_log(rng.sample(names, 4), run, FIRST - timedelta(hours=1))
                verification.verify_log(old)
                transaction.set_rollback(True)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            figures[arm].append((wall, cpu))
            print(
                f"run {run} {arm}: {replaying.result} games rated again, "
                f"wall {wall:.2f} s, CPU {cpu:.2f} s; banded again "
                f"{sum(banded)} games ({banding.wall:.3f} s wall, {banding.cpu:.3f} s CPU); "
                f"old Elo read {reading.wall:.3f} s wall, {reading.cpu:.3f} s CPU; load {load()}"
            )
            if arm == "B":
                elo_going_in_moved.connect(
                    receivers.on_elo_going_in_moved, dispatch_uid="stats.bands"
                )
    for arm, runs in figures.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"{arm}: wall median {statistics.median(walls):.2f} s "
            f"({min(walls):.2f}-{max(walls):.2f}), CPU median {statistics.median(cpus):.2f} s "
            f"({min(cpus):.2f}-{max(cpus):.2f})"
        )
    from django.db import connections

    connections.close_all()
    drop_database(url)


if __name__ == "__main__":
    main()
