"""Chart titles fit their chart on a phone: Plotly never wraps a title, so static/charts.js
breaks a long chart, x-axis or colour-bar title into lines and makes room for them; at a
desktop width they stay on one line. Phones from 360 px (small Androids) to 390 px."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_TIMEOUT_MS = 120_000

# Every chart's titles are fitted to the width it is drawn at, after any resize.
# Charts are drawn as they come near the window (static/charts.js): drawAll() draws them all.
TITLES_FITTED = """() => { window.deepseaCharts && window.deepseaCharts.drawAll();
    return Array.from(document.querySelectorAll('.plotly-graph-div')).every((div) =>
    div._fullLayout && div.dataset.titlesFitted === String(div._fullLayout.width)
    && Math.abs(div._fullLayout.width - div.getBoundingClientRect().width) < 1.5); }"""

# Per chart: its box, and the box and line count of each of its titles.
TITLES = """() => Array.from(document.querySelectorAll('.plotly-graph-div')).map((div) => {
    const r = div.getBoundingClientRect();
    return {id: div.id, left: r.left, right: r.right,
        titles: Array.from(div.querySelectorAll(
            '.gtitle, .g-xtitle text, .g-x2title text, .g-ytitle text, .colorbar [class$="title"]'))
            .map((t) => { const b = t.getBoundingClientRect();
                return {text: t.textContent, left: b.left, right: b.right,
                    lines: Math.max(1, t.querySelectorAll('tspan.line').length)}; })};
})"""


def titles_at(page, width: int) -> list[dict]:
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_function(TITLES_FITTED, timeout=PAGE_TIMEOUT_MS)
    return page.evaluate(TITLES)


@pytest.mark.parametrize("url", ["/stats/hexes/", "/stats/strategies/?game=deep-vents"])
def test_chart_titles_wrap_inside_their_chart_on_a_phone_and_not_on_a_desktop(
    browser, live_server, games, url
):
    page = browser.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + url)
    phones = [titles_at(page, 360), titles_at(page, 390)]
    desktop = titles_at(page, 1280)
    page.close()
    outside = [
        (chart["id"], title["text"])
        for phone in phones
        for chart in phone
        for title in chart["titles"]
        if title["left"] < chart["left"] - 1 or title["right"] > chart["right"] + 1
    ]
    assert outside == []
    assert any(t["lines"] > 1 for chart in phones[1] for t in chart["titles"])
    assert all(t["lines"] == 1 for chart in desktop for t in chart["titles"])
