"""The pieces of a chart's picture (common/chart_preview.py) escape only what can come from
data, texts and colours; sizes, anchors, dashes and the site's colours are constants with
nothing to escape (issue 25). Each piece is what format_html wrote, hostile text and all."""

import pytest
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from common.chart_preview import (
    DASHES,
    FONT,
    GRID,
    LABEL_SIZE,
    NOTE_FONT,
    TEXT,
    line_svg,
    preview,
    text,
)

HOSTILE = ['<script>alert("x")</script>', "O'Brien & sons", '"><img src=x>', "plain", ""]
COLOURS = [TEXT, GRID, "#636efa", 'red" onload="x', "<b>", mark_safe("#a&amp;b")]


def format_htmls_text(x, y, content, size=FONT, anchor="start"):
    return format_html(
        '<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="{}">{}</text>',
        f"{x:.1f}",
        f"{y:.1f}",
        size,
        TEXT,
        anchor,
        content,
    )


def format_htmls_line(x1, y1, x2, y2, colour, dash=""):
    return format_html(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}"{}/>',
        f"{x1:.1f}",
        f"{y1:.1f}",
        f"{x2:.1f}",
        f"{y2:.1f}",
        colour,
        format_html(' stroke-dasharray="{}"', dash) if dash else "",
    )


@pytest.mark.parametrize("content", [*HOSTILE, mark_safe("<tspan>x</tspan>"), 12.5])
def test_a_text_of_every_size_and_anchor_is_what_format_html_wrote(content):
    for size in (FONT, FONT + 2, FONT - 1, NOTE_FONT, LABEL_SIZE):
        for anchor in ("start", "middle", "end"):
            drawn = text(10.04, 3.96, content, size, anchor)
            assert drawn == format_htmls_text(10.04, 3.96, content, size, anchor)
            assert isinstance(drawn, SafeString)


@pytest.mark.parametrize("colour", COLOURS)
def test_a_line_of_every_colour_and_dash_is_what_format_html_wrote(colour):
    for dash in ["", *DASHES.values()]:
        for _ in range(2):  # the second time the colour's escaping is remembered
            drawn = line_svg(1, 2.25, 3.5, 4, colour, dash)
            assert drawn == format_htmls_line(1, 2.25, 3.5, 4, colour, dash)
            assert isinstance(drawn, SafeString)


def test_markers_and_bars_of_hostile_colours_are_escaped():
    hostile = ['"><script>x</script>', "#00cc96", "a&b"]
    figure = {
        "data": [
            {
                "type": "scatter",
                "mode": "markers",
                "x": [1, 2, 3],
                "y": [1, 2, 3],
                "marker": {"color": hostile, "size": 30},
            },
        ],
        "layout": {"title": {"text": "<b>title</b>"}},
    }
    bars = {
        "data": [
            {"type": "bar", "x": ["a", "b", "c"], "y": [1, 2, 3], "marker": {"color": hostile}}
        ],
        "layout": {},
    }
    for picture in (preview(figure), preview(bars)):
        assert "<script>" not in picture and "<b>" not in picture
        assert 'fill="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"' in picture
        assert 'fill="a&amp;b"' in picture
    assert 'r="5"' in preview(figure)  # a radius capped at 5 is written as the int it is
