"""Under pytest-xdist (`make test`: -n 3 --dist loadgroup) the tests that use the configured
Redis, or are marked `services`, run on one process, one at a time, in the group "services"
that tests/conftest.py gives them; a test that only needs PostgreSQL runs anywhere. Two of
them at once could take each other's messages or flush each other's data. A group a module
names (pytest.mark.xdist_group: data made once for the module) holds the same way. A group
only holds if xdist's workers report it in the ids they schedule by (pytest-xdist issue 1386:
with pytest 9.2, xdist's own hook writes it where it is no longer read, and the group is
silently lost).

A small suite of its own, run by pytest-xdist in a subprocess with the suite's real hook
(tests/conftest.py), shows which process ran which test."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent

CONFTEST = f"""
import importlib.util
import sys

import pytest

sys.path.insert(0, {str(TESTS)!r})
spec = importlib.util.spec_from_file_location("suite_conftest", {str(TESTS / "conftest.py")!r})
suite_conftest = importlib.util.module_from_spec(spec)
spec.loader.exec_module(suite_conftest)
pytest_collection_modifyitems = suite_conftest.pytest_collection_modifyitems


def pytest_configure(config):
    config.addinivalue_line("markers", "services: uses services")


@pytest.fixture
def redis_broker_url():
    return "redis://"


@pytest.fixture
def celery_worker():
    return "a worker on the configured Redis"


@pytest.fixture
def postgresql():
    return "postgres://"
"""

SAMPLE_TESTS = """
import time

import pytest


@pytest.mark.parametrize("number", range(6))
def test_with_redis(redis_broker_url, number):
    time.sleep(0.05)


@pytest.mark.parametrize("number", range(6))
def test_with_a_worker(celery_worker, number):
    time.sleep(0.05)


@pytest.mark.services
@pytest.mark.parametrize("number", range(6))
def test_marked(number):
    time.sleep(0.05)


@pytest.mark.parametrize("number", range(6))
def test_with_postgresql_alone(postgresql, number):
    time.sleep(0.05)


@pytest.mark.xdist_group("made-once")
@pytest.mark.parametrize("number", range(6))
def test_in_a_group_of_its_own(number):
    time.sleep(0.05)


@pytest.mark.parametrize("number", range(12))
def test_plain(number):
    time.sleep(0.05)
"""


def test_under_xdist_every_test_that_uses_services_runs_on_one_process_in_the_group(tmp_path):
    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (tmp_path / "test_sample.py").write_text(textwrap.dedent(SAMPLE_TESTS))
    # Only xdist among the installed plugins: loading all of them (schemathesis, hypothesis,
    # django...) in each of the three processes cost 11 s of CPU, and none of them schedules.
    environment = {
        name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")
    } | {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}

    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "xdist", "-n", "2", "--dist", "loadgroup", "-v",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path)],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert ran.returncode == 0, ran.stdout + ran.stderr
    passed = re.findall(
        r"\[(gw\d)\] \[ *\d+%\] PASSED test_sample.py::(\w+)\[(\d+)\](\S*)", ran.stdout
    )
    assert len(passed) == 42, ran.stdout
    grouped = {(name, number, group) for _, name, number, group in passed if group}
    assert grouped == {
        (name, str(number), "@services")
        for name in ("test_with_redis", "test_with_a_worker", "test_marked")
        for number in range(6)
    } | {("test_in_a_group_of_its_own", str(number), "@made-once") for number in range(6)}, (
        ran.stdout
    )  # fmt: skip
    for group in ("@services", "@made-once"):
        assert len({worker for worker, *_, named in passed if named == group}) == 1, ran.stdout
