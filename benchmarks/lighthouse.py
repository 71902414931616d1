"""Lighthouse scores of every public page, on the production-like stack (issue 27).

    python benchmarks/lighthouse.py [--keep] [--only PATH ...]     (or: make lighthouse)

The stack: a SQLite database of its own filled by `load_demo` (tournament, bot batches, club
nights of every game, a disputed game), static files collected by whitenoise's compressed
manifest storage, gunicorn with DEBUG off. Lighthouse 12.2.3 (npm, package-lock.json) runs
headless on Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) with its default mobile
profile (a mid-range phone on a slow 4G link, simulated) against each page, one at a time.

The mobile profile slows the CPU 4x, which Lighthouse calibrates for a desktop whose benchmark
index (its own measure of the host's speed) is about 1800; on a slower or busier host that
emulates a far slower phone than intended. As Lighthouse's throttling guide advises, the
multiplier is scaled to the host: 4 x index / 1800, between 1 and 4, from the index measured by a
first run on the home page (printed). --cpu-slowdown N fixes it instead. The host's load can
change during a run (other work on the machine): a page scored while the index was below half
the calibration's is scored again (up to twice more), and each page's index is printed.

It prints each page's performance, accessibility, best-practices and SEO scores and exits 1 if
any of the first three is below 90 on any page (SEO is printed, not enforced: the site asks
search engines nothing).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_support import load, wait_for

PROJECT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = PROJECT / "node_modules" / ".bin" / "lighthouse"
ENFORCED = ("performance", "accessibility", "best-practices")
CATEGORIES = (*ENFORCED, "seo")
THRESHOLD = 90
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu"
MOBILE_SLOWDOWN = 4  # Lighthouse's mobile profile
CALIBRATED_INDEX = 1800  # the host speed that profile assumes


def cpu_slowdown(benchmark_index: float) -> float:
    """The CPU multiplier that makes this host emulate the profile's phone."""
    return round(
        min(MOBILE_SLOWDOWN, max(1.0, MOBILE_SLOWDOWN * benchmark_index / CALIBRATED_INDEX)), 1
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stack_environment(workdir: Path, port: int) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CACHE_URL"}
    }
    env.update(
        DEBUG="false",
        SECRET_KEY="lighthouse-run-only",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"sqlite:///{workdir / 'lighthouse.sqlite3'}",
        STATIC_ROOT=str(workdir / "static"),
        MEDIA_ROOT=str(workdir / "media"),
        SITE_URL=f"http://127.0.0.1:{port}",
        DEMO_ADMIN_PASSWORD="lighthouse-demo",
        PYTHONPATH=str(PROJECT),
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=PROJECT, env=env, check=True)


def public_pages(env: dict[str, str]) -> list[str]:
    """Every public page, with the demo's own ids and handles (a club game and a bot game)."""
    script = """
import json
from games.models import GameLog, GameSeat
from players.models import Player
from stats.services.hexes import hex_names
from tournaments.models import Tournament
t = Tournament.objects.order_by("pk").first()
log = GameLog.objects.filter(status="verified").order_by("-pk").first()
bots = GameSeat.objects.filter(game__source="simulated").order_by("pk").first().game.log_id
player = Player.objects.order_by("handle").first()
print(json.dumps({"tournament": t.slug, "log": log.pk, "bots": bots, "player": player.handle,
                  "hex": next(iter(hex_names()))}))
"""
    found = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=PROJECT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    ids = json.loads(found.stdout.strip().splitlines()[-1])
    return [
        "/",
        "/tournaments/",
        f"/tournaments/{ids['tournament']}/",
        f"/tournaments/{ids['tournament']}/round/1/",
        f"/players/{ids['player']}/",
        "/leaderboards/",
        "/leaderboards/deep-vents/",
        "/leaderboards/deep-sea-adventure/",
        "/leaderboards/deep-sea-adventure-boost/",
        "/leaderboards/deep-dive/",
        "/games/",
        f"/games/{ids['log']}/",
        f"/games/{ids['bots']}/",
        "/stats/",
        "/stats/hexes/",
        f"/stats/hexes/{ids['hex']}/",
        "/stats/strategies/",
        "/analysis/turn-back/",
        "/account/login/",
    ]


def scores(url: str, report: Path, slowdown: float | None) -> dict[str, Any]:
    """One Lighthouse run (mobile profile): each category's score out of 100, and the host's
    benchmark index."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    # On a busy machine Chromium sometimes records no trace (NO_NAVSTART): a second try.
    for attempt in (1, 2):
        run = subprocess.run(
            [
                str(LIGHTHOUSE),
                url,
                f"--chrome-flags={CHROME_FLAGS}",
                f"--only-categories={','.join(CATEGORIES)}",
                "--output=json",
                f"--output-path={report}",
                "--quiet",
                *([f"--throttling.cpuSlowdownMultiplier={slowdown}"] if slowdown else []),
            ],
            env=env,
        )
        if run.returncode == 0:
            break
        print(f"  lighthouse failed on {url} (attempt {attempt})", flush=True)
    run.check_returncode()
    result = json.loads(report.read_text())
    found = {name: round(result["categories"][name]["score"] * 100) for name in CATEGORIES}
    return {**found, "index": result["environment"]["benchmarkIndex"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="Score only these paths.")
    parser.add_argument("--keep", action="store_true", help="Keep the reports and database.")
    parser.add_argument("--cpu-slowdown", type=float, help="CPU multiplier (default: calibrated).")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `make install` (npm ci)")
    workdir = Path(tempfile.mkdtemp(prefix="deepsea-lighthouse-"))
    port = free_port()
    env = stack_environment(workdir, port)
    print(f"Setting up the stack in {workdir} (load {load()})", flush=True)
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    manage(env, "load_demo")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    pages = args.only or public_pages(env)
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "deepsea.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
        ],
        cwd=PROJECT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    failures = []
    try:
        wait_for(lambda: answers(base + "/"), 180, "gunicorn")
        # A server in production is warm: each page is asked for once (imports, templates,
        # the page-fragment cache) before it is scored.
        for path in pages:
            answers(base + path)
        slowdown = args.cpu_slowdown
        index = scores(base + "/", workdir / "calibration.json", None)["index"]
        if slowdown is None:
            slowdown = cpu_slowdown(index)
        print(f"benchmark index {index:.0f}: CPU slowdown {slowdown}x", flush=True)
        print(
            f"{'page':45} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'index':>6}", flush=True
        )
        for path in pages:
            name = path.strip("/").replace("/", "_") or "home"
            for _ in range(3):
                got = scores(base + path, workdir / f"{name}.json", slowdown)
                if got["index"] >= index / 2:
                    break
                print(
                    f"  {path}: host busier (index {got['index']:.0f}), scoring again", flush=True
                )
            low = [name for name in ENFORCED if got[name] < THRESHOLD]
            if low:
                failures.append((path, low))
            marks = " ".join(f"{got[name]:5d}" for name in CATEGORIES)
            below = f"  < 90: {', '.join(low)}" if low else ""
            print(f"{path:45} {marks} {got['index']:6.0f}{below}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"load {load()}")
    if failures:
        print(f"{len(failures)} page(s) below {THRESHOLD}: " + "; ".join(p for p, _ in failures))
        return 1
    print(f"every page at {THRESHOLD} or more in {', '.join(ENFORCED)}")
    return 0


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status == 200
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
