"""The demo, loaded as tests need it, with its seating and analyses worked out once per
test process.

The demo seats its tournament's three rounds with the real search
(tournaments.services.seating.plan_tables), which spends seconds on purpose, and some forty tests
load the demo. The search depends on its arguments and the random generator's state alone, and
on player ids only through who is who: so while the demo loads, a call that matches an earlier
one (the same arguments, with each test's own player ids in the same order, and the same
generator state) gets that call's tables, in this call's ids, and leaves the generator where
that call left it. Only demo loads go through this: the seating tests always run the search.

Under pytest-xdist the processes of a run share what they worked out (shared_between_processes):
each one's first demo load starts from what the others found, so the cold seating and analysis
(about 20 CPU s) are worked out once a run rather than once a process. They share it in a file
in the run's base temporary directory (share_under, called by a session fixture of
django_fixtures.py), which pytest prunes with the run's other temporary files.
"""

import contextlib
import fcntl
import json
import os
import pickle
import tempfile
from collections import Counter
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

from django.core.management import call_command

from analysis import demo as analysis_demo
from analysis.models import budget_key
from tournaments import demo
from tournaments.services import seating

_planned: dict[bytes, tuple[list[list[int]], tuple | None]] = {}
_analysed: dict[tuple[str, str], list] = {}
_shared: Path | None = None  # the file of shared results, under pytest-xdist alone
_joined_the_others = False


def share_under(tmp_path_factory) -> None:
    """Under pytest-xdist each process's base temporary directory is one of the run's
    (.../pytest-N/popen-gw0): the processes share their results in the run's."""
    global _shared
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _shared = tmp_path_factory.getbasetemp().parent / "deepsea-demo.pickle"


@contextlib.contextmanager
def shared_between_processes() -> Iterator[None]:
    """The first demo load of a pytest-xdist process: one process at a time (a lock), each
    taking the seatings and analyses the earlier ones saved and saving what it adds, so a
    process waits for another's cold load and then loads warm. Later loads of the process, and
    runs without xdist, use the process's own memory alone."""
    global _joined_the_others
    if _shared is None or _joined_the_others:
        yield
        return
    with open(f"{_shared}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _shared.exists():
            with open(_shared, "rb") as shared:
                planned, analysed = pickle.load(shared)
            _planned.update(planned)
            _analysed.update(analysed)
        yield
        with tempfile.NamedTemporaryFile(dir=_shared.parent, delete=False) as saved:
            pickle.dump((_planned, _analysed), saved)
        os.replace(saved.name, _shared)
        _joined_the_others = True


def _relabelled(order, *, small_last_round=(), small_before=None, met=None, seats=None, **rest):
    """The call with player ids replaced by their rank among the ids it names, and the ids."""
    met, seats = met or Counter(), seats or {}
    small_before = small_before or Counter()
    ids = sorted(
        {*order, *small_last_round, *small_before, *seats, *(p for pair in met for p in pair)}
    )
    rank = {player: i for i, player in enumerate(ids)}
    rng = rest.pop("rng", None)
    call = (
        [rank[p] for p in order],
        sorted(rank[p] for p in small_last_round),
        sorted((rank[p], n) for p, n in small_before.items()),
        sorted((sorted(rank[p] for p in pair), n) for pair, n in met.items()),
        sorted((rank[p], sorted(counts.items())) for p, counts in seats.items()),
        sorted(rest.items()),
        rng.getstate() if rng is not None else None,
    )
    return pickle.dumps(call), ids


@contextlib.contextmanager
def seating_remembered() -> Iterator[None]:
    search = seating.plan_tables

    def plan_tables(order, **kwargs):
        key, ids = _relabelled(order, **kwargs)
        rng = kwargs.get("rng")
        if key not in _planned:
            tables = search(order, **kwargs)
            rank = {player: i for i, player in enumerate(ids)}
            _planned[key] = (
                [[rank[p] for p in table] for table in tables],
                rng.getstate() if rng is not None else None,
            )
        tables, state_after = _planned[key]
        if rng is not None:
            rng.setstate(state_after)
        return [[ids[i] for i in table] for table in tables]

    seating.plan_tables = plan_tables
    try:
        yield
    finally:
        seating.plan_tables = search


def load_tournament_demo() -> None:
    """The demo tournament alone (tournaments.demo.load)."""
    with shared_between_processes(), seating_remembered():
        demo.load(StringIO())


@contextlib.contextmanager
def analyses_remembered() -> Iterator[None]:
    """The demo's analyses (seconds each) worked out once per test process: a log and seed
    seen before get the decisions found then. The demo's logs are the same in every test."""
    analyse = analysis_demo.analyse_log

    def analyse_log(log, *, budget, seed, **rest):
        key = (json.dumps(log, sort_keys=True), f"{budget_key(budget)} {seed}")
        if rest or key not in _analysed:
            _analysed[key] = analyse(log, budget=budget, seed=seed, **rest)
        return _analysed[key]

    analysis_demo.analyse_log = analyse_log
    try:
        yield
    finally:
        analysis_demo.analyse_log = analyse


def load_whole_demo(**options) -> str:
    """`manage.py load_demo`, everything it loads; returns what it printed."""
    out = StringIO()
    with shared_between_processes(), seating_remembered(), analyses_remembered():
        call_command("load_demo", stdout=out, **options)
    return out.getvalue()
