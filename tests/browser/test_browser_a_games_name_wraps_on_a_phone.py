"""A game's page is headed by its name in words ("Deep Vents, 28 Nov 2026: Harbour Spring
Open · round 1 · table 1"), long enough to wrap on a phone (390 px): it wraps inside the
window in a few lines, between its phrases, smaller than on a desktop, and the page never
scrolls sideways."""

import datetime

import pytest
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS

from tests.confirmation_support import player_with_login, running_table, submitted_game
from tests.notices_support import NAMES
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PLAYED = datetime.datetime(2026, 11, 28, 19, 30, tzinfo=datetime.UTC)
NAME = "Deep Vents, 28 Nov 2026: Harbour Spring Open · round 1 · table 1"
HEADING = """() => { const h1 = document.querySelector('h1.game-name');
    const style = getComputedStyle(h1); const box = h1.getBoundingClientRect();
    return { text: h1.textContent.trim(), size: parseFloat(style.fontSize),
             lines: Math.round(box.height / parseFloat(style.lineHeight)),
             right: box.right,
             broken: Array.from(h1.querySelectorAll('.phrase'))
                 .filter((p) => p.getClientRects().length !== 1
                     || p.getBoundingClientRect().height > 1.5 * parseFloat(style.lineHeight))
                 .map((p) => p.textContent) }; }"""


def test_a_games_name_wraps_in_a_few_lines_inside_a_phones_window(browser, live_server):
    table = running_table([player_with_login(name) for name in NAMES])
    Tournament.objects.filter(pk=table.round.tournament_id).update(name="Harbour Spring Open")
    game = submitted_game(NAMES, played_at=PLAYED, table=table)
    sizes = {}
    for size in ("desktop", "phone"):
        page = browser.new_page()
        width, height = WIDTHS[size]
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/games/{game.log_id}/")
        page.screenshot(path=str(ARTIFACTS / "screenshots" / f"game-name-{size}.png"))
        sizes[size] = heading = page.evaluate(HEADING)
        overflow = page.evaluate(OVERFLOW)

        assert heading["text"] == NAME
        assert heading["right"] <= width
        assert heading["broken"] == []  # lines break between the phrases, not inside them
        assert overflow["page"] <= overflow["window"], overflow["culprits"]
        page.close()

    assert sizes["desktop"]["lines"] == 1
    assert 2 <= sizes["phone"]["lines"] <= 3
    assert sizes["phone"]["size"] < sizes["desktop"]["size"]
