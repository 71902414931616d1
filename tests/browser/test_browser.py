"""The simulation lab and the replay viewer in a real browser: Debian's Chromium, headless,
driven by Playwright. (That the main pages draw their charts with no console error is checked
with their Content-Security-Policy, in test_browser_content_security_policy.py.)"""

import json
import re

import pytest
from browser_support import (
    ARTIFACTS,
    OVERFLOW,
    PAGE_TIMEOUT_MS,
    WIDTHS,
    page_and_its_errors,
    signed_in_page,
)
from django.contrib.auth.models import User

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameSeat, Source
from games.services.intake import submit_batch
from games.viewer import ALL_AT_ONCE, count_events, event_in_words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_simulation_lab_runs_a_batch_to_the_end(browser, live_server, tmp_path):
    staff = User.objects.create_user("lab-staff", is_staff=True)
    page, errors = signed_in_page(browser, live_server, staff, "desktop", PAGE_TIMEOUT_MS)
    page.goto(live_server.url + "/stats/lab/")
    page.select_option("#id_game", "deep-dive")
    page.fill("#id_ruleset", "standard")
    page.fill("#id_players", "2")
    page.fill("#id_games", "6")
    page.click("button[type=submit]")
    page.wait_for_url("**/stats/lab/*/")
    page.wait_for_function("() => document.getElementById('batch-progress').value >= 100")
    page.screenshot(path=str(tmp_path / "lab.png"), full_page=True)
    assert "6 of 6 finished" in page.inner_text("#batch-status")
    assert errors == []


def test_the_replay_viewer_draws_every_ecosystem_and_steps_with_the_keyboard(
    browser, live_server, played_games, tmp_path
):
    log = GameSeat.objects.filter(game__game_type="deep-vents", game__player_count=4).first()
    page, errors = page_and_its_errors(browser)
    page.goto(f"{live_server.url}/games/{log.game.log_id}/#event-40", wait_until="networkidle")
    page.wait_for_function("() => document.getElementById('viewer-slider').value === '40'")

    ecosystems = page.locator("#viewer-picture svg").count()
    hexes = page.locator("#viewer-picture svg polygon").count()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('viewer-slider').value === '41'")
    page.screenshot(path=str(tmp_path / "viewer.png"), full_page=True)

    assert ecosystems >= 4
    assert hexes >= 4 * 2  # by event 40 every player has placed at least one hex
    # Told as the game is (when, who, what), never by the event's index in the log.
    words = event_in_words(log.game.log.raw, 41)
    assert page.inner_text("#viewer-label") == words[0].upper() + words[1:]
    assert page.inner_text("#viewer-position") == f"Step 42 of {count_events(log.game.log.raw)}"
    assert errors == []


def test_the_deep_vents_replay_names_who_must_decide_never_a_seat_number_or_coordinates(
    browser, live_server, played_games
):
    seat = GameSeat.objects.filter(game__game_type="deep-vents", game__player_count=4).first()
    names = json.loads(seat.game.log.raw)["players"]
    page = browser.new_page()
    page.goto(f"{live_server.url}/games/{seat.game.log_id}/", wait_until="networkidle")
    lines = []
    for index in range(-1, 60):
        page.wait_for_function(
            f"() => document.getElementById('viewer-slider').value === '{index}'"
        )
        lines.append(page.inner_text("#viewer-picture .waiting"))
        page.keyboard.press("ArrowRight")

    assert any(lines[0].startswith(player["name"]) for player in names), lines[0]
    assert [line for line in lines if "seat " in line.lower() or re.search(r"\[-?\d", line)] == []
    assert any(" or trigger " in line for line in lines)  # activations were walked


def test_a_deep_sea_adventure_diver_is_marked_on_the_path_as_beside_their_name(
    browser, live_server
):
    game = get_game("deep-sea-adventure")
    (log,) = simulate(game, game.ruleset(None), 3, 1, seed="browser-divers")
    submit_batch([json.dumps(log).encode()], user=None, source=Source.SIMULATED)
    seat = GameSeat.objects.filter(game__game_type="deep-sea-adventure").first()
    page = browser.new_page()
    page.goto(f"{live_server.url}/games/{seat.game.log_id}/#event-8", wait_until="networkidle")
    page.wait_for_function("() => document.getElementById('viewer-slider').value === '8'")

    keys = page.eval_on_selector_all(
        "#viewer-picture .dsa-divers td .dsa-diver",
        "(marks) => marks.map((mark) => [mark.textContent, mark.parentElement.textContent])",
    )
    on_path = page.eval_on_selector_all(
        "#viewer-picture .dsa-path .dsa-diver",
        "(marks) => marks.map((mark) => [mark.textContent.slice(0, -1), mark.title])",
    )
    names = [player["name"] for player in log["players"]]
    assert keys == [[str(n), f"{n} {name}"] for n, name in enumerate(names, 1)]
    assert sorted(on_path) == [[str(n), name] for n, name in enumerate(names, 1)]


def test_a_rejected_games_verdict_is_told_in_words_and_opens_the_replay_just_before_it(
    browser, live_server
):
    game = get_game("deep-dive")
    (log,) = simulate(game, game.ruleset(None), 2, 1, seed="browser-verdict")
    log["players"] = [{"name": "Marina Abyss"}, {"name": "Nemo"}]
    log["events"][1]["seat"] = 0  # Marina dives first, Nemo second (DD-2)
    upload = submit_batch([json.dumps(log).encode()], user=None, source=Source.SIMULATED)
    stored = upload.logs.get()
    page, errors = page_and_its_errors(browser)
    page.goto(f"{live_server.url}/games/{stored.pk}/", wait_until="networkidle")
    page.wait_for_selector("#viewer[data-ready=true]")

    verdict = page.inner_text("#verdict .engine-error")
    page.click("#error-moment")
    page.wait_for_function("() => document.getElementById('viewer-slider').value === '0'")

    assert verdict.startswith("Round 1, Marina Abyss: it is not Marina Abyss's turn: Nemo ")
    assert not re.search(r"event \d|seat \d", page.inner_text("main"))
    assert page.inner_text("#viewer-position") == f"Step 1 of {len(log['events'])}"
    assert page.inner_text("#viewer-label").startswith("Round 1, Marina Abyss: ")
    assert errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_replay_offers_a_link_to_the_moment_shown_in_words_with_no_code_to_type(
    browser, live_server, played_games, size
):
    seat = GameSeat.objects.filter(game__game_type="deep-vents", game__player_count=4).first()
    page, errors = page_and_its_errors(browser)
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    url = f"{live_server.url}/games/{seat.game.log_id}/"
    page.goto(url + "#event-10", wait_until="networkidle")
    page.wait_for_function("() => document.getElementById('viewer-slider').value === '10'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('viewer-slider').value === '11'")

    hint = page.inner_text("#viewer .hint")
    link = page.get_attribute("#viewer-moment-link", "href")
    page.click("#viewer-moment-link")
    page.wait_for_url(url + "#event-11")
    overflow = page.evaluate(OVERFLOW)
    page.screenshot(path=str(ARTIFACTS / f"replay-moment-link-{size}.png"), full_page=True)

    assert "this link to the moment shown" in hint
    assert "#event" not in hint and not re.search(r"event[- ]?N|event \d", hint)
    assert link == f"/games/{seat.game.log_id}/#event-11"
    assert page.input_value("#viewer-slider") == "11"
    assert not re.search(r"event \d|seat \d|\[-?\d+, -?\d+\]", page.inner_text("main"))
    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    assert errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_long_rejected_game_says_where_its_replay_stops_before_it_is_stepped_there(
    browser, live_server, size
):
    game = get_game("deep-vents")
    (log,) = simulate(game, game.ruleset(None), 4, 1, seed="browser-long-rejected")
    bad = 160
    assert len(log["events"]) > ALL_AT_ONCE >= bad - 10
    log["players"] = [{"name": name} for name in ("Ana", "Ben", "Cai", "Dee")]
    log["events"][bad]["seat"] = (log["events"][bad]["seat"] + 1) % 4
    stored = submit_batch([json.dumps(log).encode()], user=None, source=Source.SIMULATED)
    stored = stored.logs.get()
    page, errors = page_and_its_errors(browser)
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    page.goto(f"{live_server.url}/games/{stored.pk}/", wait_until="networkidle")
    page.wait_for_selector("#viewer[data-ready=true]")

    stops = page.inner_text("#viewer-error")
    overflow = page.evaluate(OVERFLOW)
    page.screenshot(path=str(ARTIFACTS / f"replay-stops-up-front-{size}.png"), full_page=True)

    assert stored.error["index"] == bad
    assert page.input_value("#viewer-slider") == "-1"  # still at the setup
    assert page.get_attribute("#viewer-slider", "max") == str(bad - 1)
    assert stops.startswith(f"The replay stops at step {bad} of {len(log['events'])}: Turn ")
    assert "it is not" in stops
    assert not re.search(r"event \d|seat \d|\[-?\d+, -?\d+\]", page.inner_text("main"))
    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    assert errors == []
