"""Recording by clicking the drawn table (issue 16, the Record page), in Debian's Chromium at a
desktop (1280 px) and a phone (390 px) width: a Deep Vents game is recorded by clicking the
row and the map (one hex with several choices opens a small menu), dice games by tapping die
faces or typing them; a banner in the seat's colour says who is asked what. Every step waits
for the page to show it; each page is checked for sideways scrolling and by axe-core, and a
screenshot is saved (test-artifacts/screenshots/, or $BROWSER_ARTIFACTS)."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS, signed_in_page
from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT_MS = 120_000  # generous for a loaded machine; every wait ends when the page is ready
HISTORY = (
    "() => Array.from(document.querySelectorAll('#record-history li'), (li) => li.textContent)"
)


def recording_page(browser, live_server, size: str):
    page, errors = signed_in_page(
        browser, live_server, User.objects.create_user("keeper"), size, TIMEOUT_MS
    )
    page.goto(live_server.url + "/record/", wait_until="load")
    return page, errors


def start(page, game: str, names: list[str], ruleset: str | None = None, deal=False) -> None:
    page.select_option("#record-game", game)
    if ruleset:
        page.select_option("#record-ruleset", ruleset)
    page.select_option("#record-count", str(len(names)))
    for seat, name in enumerate(names):
        page.fill(f"input[name=player-{seat}]", name)
    if deal:  # a random setup dealt by the page, so only the dice are entered
        page.check("input[name=setup-mode][value=deal]")
    page.click("#record-setup button[type=submit]")
    page.wait_for_selector("#record-play", state="visible")


def recorded(page, act) -> None:
    """Do `act` and wait until the page shows one more recorded step."""
    before = page.locator("#record-history li").count()
    act()
    page.wait_for_function(
        "(n) => document.querySelectorAll('#record-history li').length > n", arg=before
    )


def banner(page) -> dict:
    return page.eval_on_selector(
        "#record-banner",
        """(b) => ({text: b.querySelector('#record-status').textContent, classes: b.className,
                   top: b.getBoundingClientRect().top + window.scrollY,
                   right: b.getBoundingClientRect().right})""",
    )


def on_the_map(page, name: str):
    return page.locator(f'#record-picture [aria-label="{name}"]')


def problems_on(page, screenshot: str) -> list[str]:
    """Sideways scrolling and serious axe-core violations, with a screenshot saved."""
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screenshots" / screenshot), full_page=True)
    overflow = page.evaluate(OVERFLOW)
    found = [f"scrolls sideways: {overflow}"] if overflow["page"] > overflow["window"] else []
    for violation in Axe().run(page).response["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"][:3]]
            found.append(f"axe {violation['id']} ({violation['impact']}): {targets}")
    return found


def draw(page, hex_name: str) -> None:
    """DV-2: the scorekeeper says which hex was drawn into the row."""
    button = page.get_by_role("button", name=re.compile(f"^{hex_name} \\(\\d left\\)$"))
    recorded(page, button.click)


@pytest.mark.parametrize("size", WIDTHS)
def test_a_deep_vents_game_is_recorded_by_clicking_the_row_and_the_map(browser, live_server, size):
    page, errors = recording_page(browser, live_server, size)
    start(page, "deep-vents", ["Marina", "Nemo"], ruleset="standard")
    for hex_name in ["Yeti Crab", "Goblin Shark", "Porous Rock", "White Smoker", "Anglerfish"]:
        draw(page, hex_name)
    draw(page, "Lanternfish")
    asked_to_take = banner(page)

    recorded(page, on_the_map(page, "take Yeti Crab at position 1 (pay 0)").click)
    asked_to_place = banner(page)
    found = problems_on(page, f"record-deep-vents-place-{size}.png")
    recorded(page, on_the_map(page, "place Yeti Crab east of Deep Vent").click)
    recorded(page, on_the_map(page, "grow Deep Vent").click)
    on_the_map(page, "grow Yeti Crab").focus()  # the map works from the keyboard too
    recorded(page, lambda: page.keyboard.press("Enter"))
    recorded(page, page.get_by_role("button", name="end the turn").click)

    draw(page, "Black Smoker")  # the row refills from the stack top before the take (DV-2)
    asked_nemo = banner(page)
    recorded(page, on_the_map(page, "take Porous Rock at position 2 (pay 1)").click)
    recorded(page, on_the_map(page, "place Porous Rock south-west of Deep Vent").click)
    recorded(page, on_the_map(page, "grow Deep Vent").click)
    recorded(page, on_the_map(page, "grow Porous Rock").click)
    recorded(page, page.get_by_role("button", name="end the turn").click)

    # Marina's Deep Vent now holds 2 archaea: it may grow or trigger, so a click asks which.
    draw(page, "Gulper Eel")
    take = "take Goblin Shark at position 1 (pay 0, 1 archaea on it)"
    recorded(page, on_the_map(page, take).click)
    recorded(page, on_the_map(page, "place Goblin Shark west of Deep Vent").click)
    recorded(page, on_the_map(page, "grow Goblin Shark").click)  # first in DV-4 order
    on_the_map(page, "Deep Vent: 2 choices").click()
    menu = page.get_by_role("group", name="Choices for Deep Vent")
    menu.wait_for(state="visible")
    offered = menu.locator("button").all_inner_texts()
    focused = page.evaluate("() => document.activeElement.textContent")
    found += problems_on(page, f"record-deep-vents-menu-{size}.png")
    recorded(page, menu.get_by_role("button", name="trigger Deep Vent").click)
    history = page.evaluate(HISTORY)
    page.close()

    assert asked_to_take["text"] == "Marina to take a hex from the row"
    assert asked_to_place["text"] == "Marina to place the Yeti Crab"
    assert "seat-colour-0" in asked_to_place["classes"]
    assert asked_nemo["text"] == "Nemo to take a hex from the row"
    assert "seat-colour-1" in asked_nemo["classes"]
    assert asked_to_place["right"] <= WIDTHS[size][0]
    assert offered == ["grow Deep Vent", "trigger Deep Vent", "Cancel"]
    assert focused == "grow Deep Vent"
    assert history[6:10] == [
        "Marina (seat 1): take Yeti Crab at position 1 (pay 0)",
        "Marina (seat 1): place Yeti Crab east of Deep Vent",
        "Marina (seat 1): grow Deep Vent",
        "Marina (seat 1): grow Yeti Crab",
    ]
    assert history[-1] == "Marina (seat 1): trigger Deep Vent"
    assert not any("[" in step for step in history)
    assert found == []
    assert errors == []


@pytest.mark.parametrize("size", WIDTHS)
def test_deep_sea_adventure_dice_are_tapped_on_their_faces_or_typed(browser, live_server, size):
    page, errors = recording_page(browser, live_server, size)
    start(page, "deep-sea-adventure", ["Marina", "Nemo"], deal=True)
    page.wait_for_selector(".dice-form")
    asked = banner(page)
    found = problems_on(page, f"record-dice-{size}.png")

    page.get_by_role("button", name="die 1 shows 2").click()
    pressed = page.get_attribute("[aria-label='die 1 shows 2']", "aria-pressed")
    page.get_by_role("button", name="die 2 shows 3").click()
    recorded(page, page.get_by_role("button", name="Record the roll").click)
    page.get_by_role("button", name="leave the treasure").wait_for()
    recorded(page, page.get_by_role("button", name="leave the treasure").click)

    page.locator(".dice-form").wait_for()
    page.locator("#record-choices .die-value").nth(0).fill("1")
    page.locator("#record-choices .die-value").nth(1).fill("3")
    typed_shows = page.get_attribute("[aria-label='die 2 shows 3']", "aria-pressed")
    recorded(page, page.get_by_role("button", name="Record the roll").click)
    history = page.evaluate(HISTORY)
    page.close()

    assert asked["text"] == "Marina to roll the dice"
    assert pressed == "true"
    assert typed_shows == "true"
    assert history == [
        "Marina (seat 1): roll 2 + 3",
        "Marina (seat 1): leave the treasure",
        "Nemo (seat 2): roll 1 + 3",
    ]
    assert found == []
    assert errors == []


@pytest.mark.parametrize("size", WIDTHS)
def test_the_deep_dive_colour_die_is_tapped_on_its_face(browser, live_server, size):
    page, errors = recording_page(browser, live_server, size)
    start(page, "deep-dive", ["Marina", "Nemo", "Coral"])
    asked = banner(page)
    faces = page.locator(".colour-die .die-face").all_inner_texts()
    found = problems_on(page, f"record-colour-die-{size}.png")
    recorded(page, page.get_by_role("button", name="colour die: purple").click)
    history = page.evaluate(HISTORY)
    page.close()

    assert asked["text"] == "Marina to roll the colour die"
    assert faces == ["red", "orange", "yellow", "green", "blue", "purple"]
    assert history == ["Marina (seat 1): colour die: purple"]
    assert found == []
    assert errors == []
