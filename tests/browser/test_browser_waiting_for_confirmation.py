"""In Chromium, at 390 and 1280 px: Ann uploads a game naming Marina and Nemo; while it waits
for a worker, the upload's page keeps looking, and once verified says by itself (htmx) who
must still confirm; the games list then marks the game and filters it."""

from __future__ import annotations

import json

import pytest
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS
from django.utils import timezone

from games.models import GameLog
from games.services import intake
from games.services.verification import verify_log
from tests.confirmation_support import (
    PASSWORD,
    player_with_login,
)
from tests.ratings_support import deep_vents_log

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_upload_page_tells_who_must_confirm_once_verified(
    browser, live_server, monkeypatch, tmp_path, size
):
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    for name in ("Ann", "Marina", "Nemo"):
        player_with_login(name)
    # No worker: the log stays queued until the test verifies it.
    monkeypatch.setattr(intake.Dispatch, "on_commit", lambda self, task, *args: None)
    log_file = tmp_path / "game.json"
    log_file.write_text(json.dumps(deep_vents_log(["Ann", "Marina", "Nemo"], 7, timezone.now())))
    base = live_server.url
    page = browser.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/account/login/")
    page.fill("input[name=login]", "ann")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("text=Signed in as ann", state="attached")

    page.goto(f"{base}/upload/")
    page.set_input_files("input[name=file]", str(log_file))
    page.click("button:has-text('Upload')")
    page.wait_for_selector("#awaiting-confirmation[hx-get]", state="attached")
    log = GameLog.objects.get()
    assert log.status == GameLog.Status.QUEUED
    verify_log(log.pk)

    item = page.wait_for_selector(f"#waiting-for li[data-log='{log.pk}']")
    assert item.inner_text() == (
        f"Deep Vents, {log.game.played_at:%-d %b %Y}: Ann, Marina, Nemo — waiting for Marina "
        "and Nemo, 47 h left"
    )
    page.wait_for_selector("#awaiting-confirmation:not([hx-get])", state="attached")
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"upload-waiting-{size}.png"))
    # The section fits the window (the status table above it is wider on a phone: its own).
    right = page.evaluate(
        "() => document.getElementById('awaiting-confirmation').getBoundingClientRect().right"
    )
    assert right <= WIDTHS[size][0]

    page.goto(f"{base}/games/?confirmation=pending")
    row = page.wait_for_selector("tr[data-confirmation='pending']")
    assert "waiting for confirmation" in row.inner_text()
    overflow = page.evaluate(OVERFLOW)
    page.screenshot(
        path=str(ARTIFACTS / "screenshots" / f"games-pending-{size}.png"), full_page=True
    )
    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    page.goto(f"{base}/games/?confirmation=disputed")
    page.wait_for_selector("text=No games match.")
    assert errors == []
