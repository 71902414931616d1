"""The Django side of the suite's fixtures, loaded by the conftest.py of every area folder but
tests/engines/ (`from django_fixtures import *`).

Services. A test that needs PostgreSQL asks for `postgresql`; one that needs Redis asks for
`redis_broker_url`; one that needs a real Celery worker asks for `celery_worker`. When the
service is missing the test is skipped locally, with the reason, and FAILS under CI=true, so a
green CI run always exercised the services (.ci/run points DATABASE_URL and CELERY_BROKER_URL
at the machine's PostgreSQL and Redis).

Data of a module. A module whose many tests read the same rows (and write only inside their own
transaction, rolled back after each) makes them once: its module-scoped fixture asks for
`module_db` and makes them inside `with module_db():`. The rows live in a transaction around the
whole module, rolled back after its last test; each test's own transaction is a savepoint in it.

Clients. `staff_client` is signed in as staff; `signed_in_as(user)` (imported, not a
fixture) is a client of its own signed in as `user`.

Browser. `browser` is a fresh context (cookies, storage) in a headless Debian Chromium
(Playwright, /usr/bin/chromium) that the browser tests share (shared_chromium.py); missing
Chromium skips locally and fails under CI=true, like a missing service.

Celery. Every test runs tasks eagerly in-process, even with a broker configured, so no test
leaves messages behind. `celery_worker` switches that off for its test and starts a real worker
in a thread; rows must be committed for the worker to see them, so it brings `transactional_db`
(the same as `@pytest.mark.django_db(transaction=True)`). Queue with `task.delay_on_commit(id)`,
then `celery_worker.wait_for(task.name)` returns the finished task's name, args and state.
"""

import os
import queue
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import NamedTuple

import pytest
import redis
from celery import Celery
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.db import transaction
from django.test import Client, override_settings
from service_support import service_missing
from shared_chromium import CHROMIUM, SHARED_CHROMIUM

from deepsea.celery import app as celery_app

__all__ = [
    "browser",
    "celery_worker",
    "demo_shared_under_the_runs_temp_directory",
    "eager_celery",
    "module_db",
    "own_cache",
    "postgresql",
    "quick_flush",
    "quick_password_hashing",
    "redis_broker_url",
    "sqlite_flush_waits_for_the_live_servers_requests",
    "staff_client",
]


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


@pytest.fixture(autouse=True, scope="session")
def demo_shared_under_the_runs_temp_directory(tmp_path_factory) -> None:
    """Where the xdist processes share the demo's seating and analyses (demo_support)."""
    import demo_support  # it imports the apps' models: not before Django is set up

    demo_support.share_under(tmp_path_factory)


def a_cache_of_its_own() -> dict:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{uuid.uuid4().hex}",
        }
    }


QUICK_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def own_cache(settings) -> None:
    """Every test gets a cache of its own: no test reads a page cached by another test, or
    (with Redis under CI) by an earlier run or a development server."""
    settings.CACHES = a_cache_of_its_own()


@pytest.fixture(autouse=True)
def quick_password_hashing(settings) -> None:
    """Test accounts hash with MD5: the real hasher spends half a second per password on
    purpose, and the demo alone sets four. Processes the tests start (gunicorn, workers)
    keep the real hasher; their accounts sign in with API tokens."""
    settings.PASSWORD_HASHERS = QUICK_PASSWORD_HASHERS


@pytest.fixture(scope="module")
def module_db(
    django_db_setup: None, django_db_blocker
) -> Iterator[Callable[[], AbstractContextManager[None]]]:
    """A transaction around the module's tests, rolled back after the last; `with
    module_db():` makes rows in it (see the module docstring), with a cache of its own, the
    quick hasher and eager tasks, as a test would."""

    @contextmanager
    def making() -> Iterator[None]:
        eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = True
        try:
            with (
                django_db_blocker.unblock(),
                override_settings(
                    CACHES=a_cache_of_its_own(), PASSWORD_HASHERS=QUICK_PASSWORD_HASHERS
                ),
            ):
                yield
        finally:
            celery_app.conf.task_always_eager = eager

    with django_db_blocker.unblock():
        around = transaction.atomic()
        around.__enter__()
    try:
        yield making
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            around.__exit__(None, None, None)


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


def signed_in_as(user) -> Client:
    """A test client of its own, signed in as `user` (force_login: no password to hash)."""
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def staff_client(django_user_model) -> Client:
    """Signed in as staff: every staff page open to it, and the logs it submits may seat
    players it does not play (games.services.submission_rights)."""
    return signed_in_as(django_user_model.objects.create_user("staff", is_staff=True))


@pytest.fixture
def browser(request):
    """A fresh browser context (Playwright's BrowserContext) in the shared Chromium; the
    requests Chromium dropped because the host's network changed are kept on the test
    (`network_changes`, read by tests/conftest.py's pytest_pyfunc_call)."""
    if not os.path.exists(CHROMIUM):
        service_missing(f"Chromium: {CHROMIUM} is not installed (apt-get install chromium)")
    context = SHARED_CHROMIUM.start().new_context(viewport={"width": 1400, "height": 1000})
    request.node.network_changes = changes = []
    context.on(
        "requestfailed",
        lambda failed: (
            changes.append(f"{failed.url}: {failed.failure}")
            if "ERR_NETWORK_CHANGED" in (failed.failure or "")
            else None
        ),
    )
    try:
        yield context
    finally:
        context.close()


# How long a flush waits for a request the live server is still answering (SQLite).
FLUSH_WAIT_SECONDS = 30


@pytest.fixture(autouse=True, scope="session")
def sqlite_flush_waits_for_the_live_servers_requests() -> Iterator[None]:
    """On SQLite, a browser test's flush waits until the live server has answered a request
    the page sent before its context closed: the server's thread still reading a table
    locks it ("database table is locked: auth_user"), and a flush that failed left the test's
    rows for the next test (SQLite `make test`, 2026-12-07). The flush is one transaction,
    rolled back when it fails, so trying again deletes the rows once."""
    from django.db import OperationalError, connection

    if connection.vendor != "sqlite":
        yield
        return
    operations = type(connection.ops)
    execute = operations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        deadline = time.monotonic() + FLUSH_WAIT_SECONDS
        while True:
            try:
                return execute(self, sql_list)
            except OperationalError as error:
                if "is locked" not in str(error) or time.monotonic() > deadline:
                    raise
            time.sleep(0.05)

    operations.execute_sql_flush = execute_sql_flush
    yield
    operations.execute_sql_flush = execute


@pytest.fixture(autouse=True, scope="session")
def quick_flush() -> Iterator[None]:
    """A transactional test's flush (after each browser test, among others) deletes the rows
    of PostgreSQL's tables in one transaction, the foreign keys checked at its commit (Django
    makes them deferred), instead of TRUNCATE: that gives each of ~70 tables new files, about
    1.5 s of the server's time a test, where deleting takes tens of milliseconds. A flush that
    resets sequences or cascades is left as Django writes it."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    operations = type(connection.ops)
    truncate = operations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {self.quote_name(table)};" for table in tables]

    operations.sql_flush = sql_flush
    yield
    operations.sql_flush = truncate
