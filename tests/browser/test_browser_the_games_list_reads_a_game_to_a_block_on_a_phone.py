"""On a phone (390 px) the games list reads a game to a block: the game and when it was played
on one line, its source beneath, then its seats across the whole width, so that a screen holds
several games; the page never scrolls sideways. On a desktop it stays a table of four columns,
one row a game. (As a table scrolling sideways on a phone, the seats were squeezed to a few
letters a line and a row stood some 220 px tall.)"""

import pytest
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROWS = """() => Array.from(document.querySelectorAll('.table-scroll > table > tbody > tr'))
  .map((row) => {
    const box = row.getBoundingClientRect();
    const cells = Array.from(row.children).map((cell) => {
        const b = cell.getBoundingClientRect();
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom,
                 text: cell.textContent.trim() }; });
    return { height: box.height, width: box.width, cells }; })"""


def rows_at(browser, live_server, size: str) -> tuple[list[dict], dict]:
    page = browser.new_page()
    width, height = WIDTHS[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/games/")
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"games-list-{size}.png"))
    rows, overflow = page.evaluate(ROWS), page.evaluate(OVERFLOW)
    page.close()
    return rows, overflow


def test_on_a_phone_each_game_is_a_short_block_with_its_seats_at_full_width(
    browser, live_server, played_games
):
    rows, overflow = rows_at(browser, live_server, "phone")

    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    assert len(rows) >= 8
    for row in rows:
        game, played, source, seats = row["cells"]
        assert abs(game["top"] - played["top"]) < 2  # the game and its time share a line
        assert played["right"] <= row["width"] + game["left"]
        assert source["top"] >= game["bottom"] - 1 and seats["top"] >= source["bottom"] - 1
        assert seats["right"] - seats["left"] >= 0.9 * row["width"]  # the seats' full width
        assert row["height"] < 160, row  # four to six games a screen, not three


def test_on_a_desktop_each_game_is_one_row_of_four_columns(browser, live_server, played_games):
    rows, overflow = rows_at(browser, live_server, "desktop")

    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    for row in rows:
        tops = {round(cell["top"]) for cell in row["cells"]}
        lefts = [cell["left"] for cell in row["cells"]]
        assert len(tops) == 1 and lefts == sorted(lefts)
