"""The one headless Chromium the browser tests share (Debian's, driven by Playwright). Nothing
is imported until a browser test starts it, so tests without a browser never load Playwright."""

import os

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
    """One headless Chromium for each run of browser tests in a row (they are collected first,
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
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.chromium = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_FLAGS
            )
        return self.chromium

    def stop(self) -> None:
        if self.chromium is None:
            return
        from django.db import connections

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
