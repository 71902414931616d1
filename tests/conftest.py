"""The suite's root: what every test shares, with no Django and no browser loaded here, so that
the engine tests (tests/engines/) run without either.

Layout. One folder per area (engines, games, tournaments, ratings, stats, analysis,
confirmations, accounts, notices, pages, api, browser, project); the helpers they share are
the *_support.py modules here, importable by name from any folder. Each folder but engines/
loads the Django, services, Celery and browser fixtures from its conftest.py
(`from django_fixtures import *`, see tests/django_fixtures.py) and defines its own fixtures
once there.

Property tests (hypothesis, and schemathesis on top of it). Outside CI each run draws new
examples. Under CI=true the "ci" profile draws the same examples every run (derandomize, no
example database, no deadline or too-slow health check that a loaded machine could trip), so a
red CI is a real bug and a green one can be run again. `make fuzz` loads the "fuzz" profile
(HYPOTHESIS_PROFILE=fuzz): random examples, at least FUZZ_EXAMPLES per test. HYPOTHESIS_PROFILE
names any of them explicitly.
"""

import os
import sys

import hypothesis
import pytest

# The shared helpers (*_support.py) sit here, beside the areas' folders that import them.
sys.path.insert(0, os.path.dirname(__file__))

from service_support import UNDER_CI
from shared_chromium import SHARED_CHROMIUM

from engines.analysis import strategy
from engines.analysis.strategy import SearchBudget

hypothesis.settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[hypothesis.HealthCheck.too_slow],
)
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
hypothesis.settings.register_profile(
    "fuzz",
    max_examples=FUZZ_EXAMPLES,
    derandomize=False,
    deadline=None,
    print_blob=True,
    suppress_health_check=[hypothesis.HealthCheck.too_slow],
)
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if UNDER_CI else "default")
hypothesis.settings.load_profile(HYPOTHESIS_PROFILE)


@pytest.fixture(autouse=True, scope="session")
def small_montecarlo_search():
    """Every test that seats the montecarlo bot (property tests draw it among each game's
    bots) plays it at the smallest search budget that still takes each step of its search (2
    playouts an action, doubled once where a decision is close, actions clearly behind
    dropped): its default doubles playouts up to 256, 15-20 times the CPU of a heuristic
    game, and even 4 to 16 was most of tests/engines/' time. How well it plays is
    benchmarks/bot_match.py's question; test_montecarlo_search.py passes its budgets
    explicitly."""
    default, by_game = strategy.MONTECARLO_BUDGET, strategy.MONTECARLO_BUDGETS
    strategy.MONTECARLO_BUDGET, strategy.MONTECARLO_BUDGETS = SearchBudget(first=2, most=4), {}
    yield
    strategy.MONTECARLO_BUDGET, strategy.MONTECARLO_BUDGETS = default, by_game


def pytest_report_header() -> str:
    return f"hypothesis profile: {HYPOTHESIS_PROFILE}"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run first, one after the other on each process, so that a process starts
    one Chromium for all of them (SharedChromium) and stops it before any other test: last,
    after pytest-django's reordering (by kind of database use, tryfirst), which this sort
    keeps within each part. Under pytest-xdist (`--dist loadgroup`, make test) the tests that
    use the configured Redis or stacks of servers of their own (uses_services) form the group
    "services", run one at a time on one process while the other tests spread over all of
    them; a module whose tests share data made once for the module (module_db) names a group
    of its own (pytest.mark.xdist_group), so that one process makes it, not each. Under the
    fuzz profile, each property test runs at least FUZZ_EXAMPLES examples: a
    test's own @settings(max_examples=...) outranks any profile, so it is raised here, on the
    settings Hypothesis keeps on the test."""
    items.sort(key=lambda item: not uses_browser(item))  # stable: else in the order collected
    for item in items:
        if uses_browser(item):
            item.add_marker(RERUN_WHEN_THE_HOST_NETWORK_CHANGES)
        group = xdist_group_of(item)
        if group and getattr(config.option, "loadgroup", False):  # set on xdist's workers
            name_group_in_node_id(item, group)
    if HYPOTHESIS_PROFILE != "fuzz":
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples < FUZZ_EXAMPLES:
            test._hypothesis_internal_use_settings = hypothesis.settings(
                own, max_examples=FUZZ_EXAMPLES
            )


# Chromium aborts its requests in flight, a page's scripts included, whenever the host's
# network interfaces change (any interface: a container or a VPN coming up), with
# net::ERR_NETWORK_CHANGED (https://issues.chromium.org/issues/41465264); nothing in the page
# or the test can prevent it. One rule for browser tests: a failure is HostNetworkChanged
# (pytest_pyfunc_call) when Chromium dropped a request so during the test (the `browser`
# fixture records them) or the failure says so itself, whatever else it says; such a test
# runs again, up to twice; any other failure fails at once.
RERUN_WHEN_THE_HOST_NETWORK_CHANGES = pytest.mark.flaky(reruns=2, only_rerun=["HostNetworkChanged"])
NETWORK_CHANGED = "ERR_NETWORK_CHANGED"


class HostNetworkChanged(Exception):
    """A browser test failed while Chromium dropped requests because the host's network
    changed: the failure it raised is its cause."""


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function):
    try:
        return (yield)
    except Exception as failure:
        dropped = getattr(pyfuncitem, "network_changes", None)
        if dropped:
            raise HostNetworkChanged(
                f"Chromium dropped {len(dropped)} request(s): {dropped[:3]}"
            ) from failure
        if uses_browser(pyfuncitem) and NETWORK_CHANGED in str(failure):
            raise HostNetworkChanged(f"the test's failure says {NETWORK_CHANGED}") from failure
        raise


SERVICES_GROUP = "services"


def xdist_group_of(item: pytest.Item) -> str | None:
    """The group the test runs in under --dist loadgroup: "services" for the tests that use
    services (marked so here), else the group its module or itself names, if any."""
    if not uses_browser(item) and uses_services(item):
        item.add_marker(pytest.mark.xdist_group(SERVICES_GROUP))
        return SERVICES_GROUP
    marker = item.get_closest_marker("xdist_group")
    if marker is None:
        return None
    return marker.args[0] if marker.args else marker.kwargs.get("name")


def name_group_in_node_id(item: pytest.Item, group: str) -> None:
    """pytest-xdist's loadgroup schedules by a "@group" suffix on the ids its workers report.
    Its own hook writes that suffix where pytest 9.2 no longer reads it (pytest-xdist issue
    1386: every test then runs wherever, the group silently ignored), and before this hook's
    marks exist anyway; so the suffix is written here, once, where the pytest in use reads
    the id (tests/project/test_the_suite_runs_services_tests_one_at_a_time.py checks it)."""
    suffixed = f"{item.nodeid.removesuffix(f'@{group}')}@{group}"
    if hasattr(item, "_id"):  # pytest >= 9.2: a structured id, whose text is kept as parsed
        item._id = type(item._id).parse(suffixed)
    else:
        item._nodeid = suffixed


def uses_browser(item: pytest.Item | None) -> bool:
    return item is not None and "browser" in getattr(item, "fixturenames", ())


# Fixtures of tests that use the machine's Redis (CELERY_BROKER_URL): real workers, and a sweep
# that reads every queue there, could take or count each other's messages (log ids repeat
# across the processes' databases), so under pytest-xdist (make test's -n 3 --dist loadgroup)
# they run one at a time, on one process, beside the other tests; so do the tests marked
# `services`: stacks of servers of their own that run for tens of seconds, so that two never
# share the two cores. PostgreSQL alone is no reason: each process has a test database of its
# own (test_<name>_gw0, ...) and nothing a test does there reaches another's.
SERVICE_FIXTURES = {"redis_broker_url", "celery_worker"}


def uses_services(item: pytest.Item) -> bool:
    return item.get_closest_marker("services") is not None or not SERVICE_FIXTURES.isdisjoint(
        getattr(item, "fixturenames", ())
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """After the test's fixtures are gone: the last browser test of a process stops Chromium
    (under pytest-xdist, `nextitem` is the next test this process runs)."""
    result = yield
    if uses_browser(item) and not uses_browser(nextitem):
        SHARED_CHROMIUM.stop()
    return result


def pytest_sessionfinish() -> None:
    SHARED_CHROMIUM.stop()
