"""What the browser tests share: where screenshots go, the two window sizes, the check for
sideways scrolling, and what a timed-out wait reports."""

import os
from contextlib import contextmanager
from pathlib import Path

ARTIFACTS = Path(
    os.environ.get("BROWSER_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts")
)
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
# A loaded machine (CI with every test at once) can take long to draw a page; the waits end as
# soon as the page is ready.
PAGE_TIMEOUT_MS = 120_000
# What each Plotly chart of a page has drawn.
CHARTS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map((div) => ({
    id: div.id,
    svg: div.querySelector('svg.main-svg') !== null,
    traces: (div.data || []).length,
    points: (div.data || []).reduce((n, t) =>
        n + ((t.x || t.values || t.z || t.q1 || []).length || 0), 0),
    title: ((div.layout || {}).title || {}).text || '',
    pie: (div.data || []).every((t) => t.type === 'pie'),
    untitledAxes: Object.keys(div.layout || {}).filter((k) => /^[xy]axis\\d*$/.test(k))
        .filter((k) => !((div.layout[k].title || {}).text)),
    width: div.getBoundingClientRect().width,
}))"""
# Every .plotly-graph-div has been drawn (its SVG exists and it holds data).
# Charts are drawn as they come near the window (static/charts.js): drawAll() draws them all.
CHARTS_READY = """() => { window.deepseaCharts && window.deepseaCharts.drawAll();
    return Array.from(document.querySelectorAll('.plotly-graph-div'))
    .every((div) => div.data && div.querySelector('svg.main-svg')); }"""
# How far the page scrolls sideways, and the first elements sticking out of the window
# (wide tables and charts scroll inside their own box and do not count).
OVERFLOW = """() => ({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
    culprits: Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((e) => !e.closest('.table-scroll, .js-plotly-plot, .skip-link'))
        .slice(0, 5).map((e) => e.tagName + '.' + e.className + '#' + e.id),
})"""


def signed_in_page(browser, live_server, user, size: str, timeout_ms: int):
    """A page of `browser` signed in as `user` at the width named `size`, with the console
    errors and page errors it raises collected in the list returned beside it."""
    sign_in(browser, live_server, user)
    page, errors = page_and_its_errors(browser)
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    page.set_default_timeout(timeout_ms)
    return page, errors


def sign_in(browser, live_server, user) -> None:
    """`browser`'s pages signed in as `user` (a session cookie of a client force_login-ed)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    browser.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )


def page_and_its_errors(browser):
    """A new page of `browser`, and the list its console errors and page errors go to."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


# How much of the page a timed-out wait's failure quotes.
PAGE_EXCERPT = """() => (document.querySelector('#content, main') || document.body)
    .outerHTML.slice(0, 3000)"""


@contextmanager
def shown_on_timeout(page, name: str, errors: list[str]):
    """A wait in `page` that times out fails with what the page showed: its address, its
    console errors, the start of its content, and a full-page screenshot in
    ARTIFACTS/screenshots/<name>-timeout.png."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        yield
    except PlaywrightTimeout as timeout:
        screenshot = ARTIFACTS / "screenshots" / f"{name}-timeout.png"
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(screenshot), full_page=True)
        raise AssertionError(
            f"{timeout.message}\npage: {page.url}\nconsole errors: {errors}\n"
            f"screenshot: {screenshot}\n{page.evaluate(PAGE_EXCERPT)}"
        ) from timeout
