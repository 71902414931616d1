"""Fixtures for the whole suite.

Services. A test that needs PostgreSQL asks for `postgresql`; one that needs Redis asks for
`redis_broker_url`; one that needs a real Celery worker asks for `celery_worker`. When the
service is missing the test is skipped locally, with the reason, and FAILS under CI=true, so a
green CI run always exercised the services (.ci/run points DATABASE_URL and CELERY_BROKER_URL
at the machine's PostgreSQL and Redis).

Browser. `browser` is a fresh context (cookies, storage) in a headless Debian Chromium
(Playwright, /usr/bin/chromium) that the browser tests share (SharedChromium); missing Chromium
skips locally and fails under CI=true, like a missing service.

Celery. Every test runs tasks eagerly in-process, even with a broker configured, so no test
leaves messages behind. `celery_worker` switches that off for its test and starts a real worker
in a thread; rows must be committed for the worker to see them, so it brings `transactional_db`
(the same as `@pytest.mark.django_db(transaction=True)`). Queue with `task.delay_on_commit(id)`,
then `celery_worker.wait_for(task.name)` returns the finished task's name, args and state.

Property tests (hypothesis, and schemathesis on top of it). Outside CI each run draws new
examples. Under CI=true the "ci" profile draws the same examples every run (derandomize, no
example database, no deadline or too-slow health check that a loaded machine could trip), so a
red CI is a real bug and a green one can be run again. `make fuzz` loads the "fuzz" profile
(HYPOTHESIS_PROFILE=fuzz): random examples, at least FUZZ_EXAMPLES per test. HYPOTHESIS_PROFILE
names any of them explicitly.
"""

import os
import queue
import sys
import uuid
from collections.abc import Iterator
from typing import NamedTuple, NoReturn

import hypothesis
import pytest
import redis
from celery import Celery
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.db import connections
from playwright.sync_api import sync_playwright

from deepsea.celery import app as celery_app

# The shared helpers (*_support.py) sit here, beside the areas' folders that import them.
sys.path.insert(0, os.path.dirname(__file__))

UNDER_CI = os.environ.get("CI", "").lower() == "true"

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


def pytest_report_header() -> str:
    return f"hypothesis profile: {HYPOTHESIS_PROFILE}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last, one after the other, so that they share one Chromium
    (SharedChromium). Under the fuzz profile, each property test runs at least FUZZ_EXAMPLES
    examples: a test's own @settings(max_examples=...) outranks any profile, so it is raised
    here, on the settings Hypothesis keeps on the test."""
    items.sort(key=uses_browser)  # stable: otherwise in the order collected
    for item in items:
        if uses_browser(item):
            item.add_marker(pytest.mark.xdist_group("browser"))
        elif uses_services(item):
            item.add_marker(pytest.mark.xdist_group("services"))
    if HYPOTHESIS_PROFILE != "fuzz":
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples < FUZZ_EXAMPLES:
            test._hypothesis_internal_use_settings = hypothesis.settings(
                own, max_examples=FUZZ_EXAMPLES
            )


def service_missing(reason: str) -> NoReturn:
    """Skip locally; fail under CI, where every service must be there."""
    if UNDER_CI:
        pytest.fail(f"{reason} (required under CI=true)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def redis_broker_url() -> str:
    """The CELERY_BROKER_URL, once a Redis server answers there."""
    url = settings.CELERY_BROKER_URL
    if not url:
        service_missing("Redis: CELERY_BROKER_URL is not set")
    if not url.startswith(("redis://", "rediss://")):
        service_missing(f"Redis: CELERY_BROKER_URL={url!r} is not a Redis URL")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        service_missing(f"Redis at {url} does not answer: {error}")
    return url


@pytest.fixture
def postgresql() -> None:
    """Requires that the tests run on PostgreSQL (DATABASE_URL=postgres://...)."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        service_missing("PostgreSQL: DATABASE_URL does not point at PostgreSQL")


@pytest.fixture(autouse=True)
def own_cache(settings) -> None:
    """Every test gets a cache of its own: no test reads a page cached by another test, or
    (with Redis under CI) by an earlier run or a development server."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{uuid.uuid4().hex}",
        }
    }


@pytest.fixture(autouse=True)
def eager_celery() -> Iterator[Celery]:
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield celery_app
    celery_app.conf.task_always_eager = previous


class FinishedTask(NamedTuple):
    name: str
    args: tuple
    state: str  # SUCCESS, FAILURE, RETRY...


class RunningWorker:
    """A started worker, and the tasks it has finished so far."""

    def __init__(self, queue_name: str) -> None:
        self.queue_name = queue_name
        self.finished: queue.Queue[FinishedTask] = queue.Queue()

    def on_task_postrun(self, task, args, state: str, **kwargs) -> None:
        self.finished.put(FinishedTask(task.name, tuple(args), state))

    def wait_for(self, task_name: str, timeout: float = 30) -> FinishedTask:
        """Wait until the worker has run a task of this name."""
        while True:
            try:
                finished = self.finished.get(timeout=timeout)
            except queue.Empty:
                pytest.fail(f"the worker ran no {task_name} within {timeout} s", pytrace=False)
            if finished.name == task_name:
                return finished


@pytest.fixture
def celery_worker(
    redis_broker_url: str, transactional_db: None, eager_celery: Celery
) -> Iterator[RunningWorker]:
    """A real worker on the configured Redis, in a thread, consuming a queue of its own."""
    app = eager_celery
    worker = RunningWorker(f"test-{uuid.uuid4().hex}")
    previous_queues = app.conf.task_default_queue, app.conf.interactive_queue
    app.conf.task_always_eager = False
    # Single logs' verifications too (deepsea.celery.route_task): one queue for everything.
    app.conf.task_default_queue = app.conf.interactive_queue = worker.queue_name
    task_postrun.connect(worker.on_task_postrun, weak=False)
    try:
        with start_worker(
            app,
            pool="solo",
            queues=[worker.queue_name],
            perform_ping_check=False,
            loglevel="WARNING",
            shutdown_timeout=30,
        ):
            yield worker
    finally:
        task_postrun.disconnect(worker.on_task_postrun)
        app.conf.task_default_queue, app.conf.interactive_queue = previous_queues
        # The queue and the bindings kombu keeps for it; nothing else uses them.
        redis.Redis.from_url(redis_broker_url).delete(
            worker.queue_name,
            f"_kombu.binding.{worker.queue_name}",
            f"_kombu.binding_permanent.{worker.queue_name}",
        )


# Browser tests: Debian's Chromium, headless, driven by Playwright (never a downloaded browser).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class SharedChromium:
    """One headless Chromium for each run of browser tests in a row (they are collected last,
    see pytest_collection_modifyitems); each test gets a fresh context of its own (cookies,
    storage and cache start empty, as with a fresh profile).

    Playwright's sync API keeps its event loop running in this thread while it is started,
    and while a loop runs, Django refuses ORM calls (DJANGO_ALLOW_ASYNC_UNSAFE lifts that: the
    calls are plain synchronous ones) and keeps the ORM's connections apart from the thread's
    usual ones (asgiref's Local turns into a context variable), where nothing else closes
    them. So the browser starts at the first browser test and stops after the last one of the
    run (pytest_runtest_teardown), closing those connections first: left open, they would keep
    the test database "accessed by other users" when the session drops it. Tests that use no
    browser never run while the loop does."""

    def __init__(self) -> None:
        self.playwright = None
        self.chromium = None
        self.previous_async_unsafe: str | None = None

    def start(self):
        if self.chromium is None:
            self.previous_async_unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            self.playwright = sync_playwright().start()
            self.chromium = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_FLAGS
            )
        return self.chromium

    def stop(self) -> None:
        if self.chromium is None:
            return
        connections.close_all()
        try:
            self.chromium.close()
        finally:
            self.playwright.stop()
            self.chromium = self.playwright = None
            if self.previous_async_unsafe is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = self.previous_async_unsafe


SHARED_CHROMIUM = SharedChromium()


def uses_browser(item: pytest.Item | None) -> bool:
    return item is not None and "browser" in getattr(item, "fixturenames", ())


# Fixtures of tests that use the machine's Redis (whose database some of them flush), start
# processes of their own or run for minutes: with pytest-xdist (make test's -n 2 --dist
# loadgroup) they run one at a time, on one worker, beside the other tests.
SERVICE_FIXTURES = {"redis_broker_url", "celery_worker", "postgresql"}


def uses_services(item: pytest.Item) -> bool:
    return item.get_closest_marker("services") is not None or not SERVICE_FIXTURES.isdisjoint(
        getattr(item, "fixturenames", ())
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """After the test's fixtures are gone: the last browser test of a run stops Chromium."""
    result = yield
    if uses_browser(item) and not uses_browser(nextitem):
        SHARED_CHROMIUM.stop()
    return result


def pytest_sessionfinish() -> None:
    SHARED_CHROMIUM.stop()


@pytest.fixture
def browser():
    """A fresh browser context (Playwright's BrowserContext) in the shared Chromium."""
    if not os.path.exists(CHROMIUM):
        service_missing(f"Chromium: {CHROMIUM} is not installed (apt-get install chromium)")
    context = SHARED_CHROMIUM.start().new_context(viewport={"width": 1400, "height": 1000})
    try:
        yield context
    finally:
        context.close()
