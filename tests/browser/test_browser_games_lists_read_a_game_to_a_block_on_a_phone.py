"""On a phone (390 px) the games list reads a game to a block: the game and when it was played
on one line, its source beneath, then its seats across the whole width, so that a screen holds
several games; the page never scrolls sideways. On a desktop it stays a table of four columns,
one row a game. (As a table scrolling sideways on a phone, the seats were squeezed to a few
letters a line and a row stood some 220 px tall.) A player's page lists their games the same
way: when and which game on a line, then the source and their place, score and bid beneath
their headings, where the table had scrolled the numbers out of sight."""

import pytest
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROWS = """(table) => Array.from(document.querySelectorAll(`${table} > tbody > tr`)).map((row) => {
    const box = row.getBoundingClientRect();
    const cells = Array.from(row.children).map((cell) => {
        const b = cell.getBoundingClientRect();
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom,
                 text: cell.textContent.trim() }; });
    return { height: box.height, width: box.width, cells }; })"""
HEADINGS = """(table) => Object.fromEntries(Array.from(
    document.querySelectorAll(`${table} > thead th`)).map((th) => {
        const b = th.getBoundingClientRect();
        return [th.textContent.trim(), { left: b.left, top: b.top }]; }))"""


def rows_at(
    browser, live_server, size: str, path: str = "/games/", table: str = "table.game-list"
) -> tuple[list[dict], dict, dict]:
    """The rows of `table` on the page at `path`, its headings' places and the page's width."""
    page = browser.new_page()
    width, height = WIDTHS[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}{path}")
    name = path.strip("/").replace("/", "-")
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"{name}-list-{size}.png"))
    rows, headings = page.evaluate(ROWS, table), page.evaluate(HEADINGS, table)
    overflow = page.evaluate(OVERFLOW)
    page.close()
    return rows, headings, overflow


def test_on_a_phone_each_game_is_a_short_block_with_its_seats_at_full_width(
    browser, live_server, played_games
):
    rows, _, overflow = rows_at(browser, live_server, "phone")

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
    rows, _, overflow = rows_at(browser, live_server, "desktop")

    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    for row in rows:
        tops = {round(cell["top"]) for cell in row["cells"]}
        lefts = [cell["left"] for cell in row["cells"]]
        assert len(tops) == 1 and lefts == sorted(lefts)


def test_on_a_phone_a_players_games_show_place_score_and_bid_under_their_headings(
    browser, live_server, played_games
):
    path = f"/players/{played_games.player.handle}/"
    rows, headings, overflow = rows_at(browser, live_server, "phone", path, "table.player-games")

    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    assert rows
    for row in rows:
        played, game, source, place, score, bid = row["cells"]
        assert abs(played["top"] - game["top"]) < 2
        assert source["top"] >= played["bottom"] - 1
        for cell, heading in ((place, "Place"), (score, "Score"), (bid, "Bid")):
            assert abs(cell["top"] - source["top"]) < 2  # on the source's line
            assert abs(cell["left"] - headings[heading]["left"]) < 2  # under its heading
            assert cell["right"] <= row["width"] + played["left"]


CELLS = """(table) => Array.from(document.querySelectorAll(`${table} > * > tr > *`)).map((cell) => {
    const style = getComputedStyle(cell);
    return [style.borderBottomWidth, style.paddingTop, style.paddingLeft, style.paddingRight,
            style.boxShadow, style.backgroundImage, style.backgroundColor]; })"""


def test_on_a_phone_both_lists_cells_are_plain_grid_cells(browser, live_server, played_games):
    """One reset for the cells of both lists (site.css shares it): no border of their own (the
    row's runs under them), the same padding, no shadow or stripe of their own. (Its
    `position: static` yields to the sticky first column's rule, harmless where nothing
    scrolls sideways.)"""
    page = browser.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS["phone"], strict=True)))
    styles = []
    for path, table in (
        ("/games/", "table.game-list"),
        (f"/players/{played_games.player.handle}/", "table.player-games"),
    ):
        page.goto(f"{live_server.url}{path}")
        cells = page.evaluate(CELLS, table)
        assert cells, table
        styles.append({tuple(cell) for cell in cells})
    page.close()

    games_cells, players_cells = styles
    plain = {("0px", "2.4px", "8px", "8px", "none", "none", "rgba(0, 0, 0, 0)")}
    assert games_cells == plain and players_cells == plain
