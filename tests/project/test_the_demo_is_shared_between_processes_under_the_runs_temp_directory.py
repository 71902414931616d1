"""Under pytest-xdist the processes of a run share the demo's cold seating and analyses
(tests/demo_support.py) in one file, one process at a time (a lock), kept in the run's base
temporary directory, which pytest prunes, rather than in /tmp for ever.

A small suite of its own, run by pytest-xdist on three processes in a subprocess with the
suite's session fixture (django_fixtures.py): each process adds a result of its own while it
holds the lock, and says which file it shared and whether another opener found the lock held."""

import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent.parent
PROCESSES = 3

CONFTEST = f"""
import sys

sys.path[:0] = [{str(TESTS)!r}, {str(TESTS.parent)!r}]

from django_fixtures import demo_shared_under_the_runs_temp_directory  # noqa: E402, F401
"""

# Each process, once: its own result saved through the shared file, and what it saw there.
SAMPLE_TEST = """
import fcntl
import json
import pickle
import os

import demo_support


def test_a_process_joins_the_others(tmp_path_factory):
    worker = os.environ["PYTEST_XDIST_WORKER"]
    with demo_support.shared_between_processes():
        shared = demo_support._shared
        demo_support._planned[worker.encode()] = ([], None)
        with open(f"{shared}.lock") as another_opener:
            try:
                fcntl.flock(another_opener, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = False
            except BlockingIOError:
                held = True
    report = tmp_path_factory.getbasetemp().parent / f"report-{worker}.json"
    report.write_text(json.dumps({"shared": str(shared), "held": held}))
"""


@pytest.fixture
def run(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(CONFTEST)
    (suite / "test_sample.py").write_text(textwrap.dedent(SAMPLE_TEST))
    base = tmp_path / "base"
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"-n{PROCESSES}", "--dist",
         "each", f"--basetemp={base}", "-q", "-c", os.devnull, f"--rootdir={suite}",
         "-o", "DJANGO_SETTINGS_MODULE=deepsea.settings", str(suite)],
        capture_output=True, text=True, timeout=300, cwd=suite,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stdout + finished.stderr
    return base


def test_the_processes_share_one_file_in_the_runs_temp_directory_under_a_lock(run):
    reports = [json.loads(path.read_text()) for path in sorted(run.glob("report-*.json"))]
    with open(run / "deepsea-demo.pickle", "rb") as shared:
        planned, _ = pickle.load(shared)

    assert len(reports) == PROCESSES
    assert {report["shared"] for report in reports} == {str(run / "deepsea-demo.pickle")}
    assert all(report["held"] for report in reports)
    # Every process's result reached the file: each read what the others had saved.
    assert set(planned) == {f"gw{n}".encode() for n in range(PROCESSES)}
