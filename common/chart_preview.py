"""A chart drawn on the server as a small SVG, shown until the reader asks to explore it.

plotly.js costs a phone about two seconds of script before a chart appears; a chart in the
first screen would make every visit pay it. So simple figures (lines, markers and bars on
one x axis, any number of y axes stacked by domain) come with this picture of themselves:
same data, same titles, a legend, no interaction. static/charts.js swaps in plotly.js when
the reader points at the chart or presses its "Explore" button. Figures this does not draw
(pies, heatmaps, boxes, side-by-side axes, point labels) get no preview: charts.js draws them
with plotly.js as they come near the window.
"""

from __future__ import annotations

import datetime
import html
import math
from collections.abc import Sequence
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString, mark_safe

WIDTH = 420  # the SVG's own units; it scales to the page's width (site.css)
HEIGHT = 0.8  # of the figure's height: a picture as wide as a phone needs less than plotly
FONT = 13
CHAR = 0.56 * FONT  # a character's width, near enough for placing text
TEXT = "#2a3f5f"  # plotly_white's colours, so the picture matches what replaces it
GRID = "#ebf0f8"
COLOURS = ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692"]
DASHES = {"dot": "2 3", "dash": "6 4", "dashdot": "6 3 2 3"}
MARKERS_UP_TO = 200  # more points than this: lines only
SUPPORTED = {"scatter", "bar"}


def wrapped(text: str, width: float, size: float = FONT) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` (estimated)."""
    lines: list[str] = []
    for word in str(text).split():
        if lines and (len(lines[-1]) + 1 + len(word)) * 0.56 * size <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def title_of(thing: Any) -> str:
    title = (thing or {}).get("title") or {}
    return title.get("text", "") if isinstance(title, dict) else str(title)


def seconds_of(values: list[Any]) -> list[float | None]:
    """as_number of each value; a list of plain numbers (a rating history's dates as their
    seconds, issue 25) as it is."""
    if set(map(type, values)) <= NUMBERS:
        return values
    return [as_number(v) for v in values]


def as_number(value: Any) -> float | None:
    """A value on a numeric or date axis as a number (dates as seconds), None for a gap."""
    if value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return datetime.datetime.fromisoformat(str(value)).timestamp()
    except ValueError:
        return None


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def number_label(value: float, whole: bool) -> str:
    if whole:
        return str(round(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


class Scale:
    def __init__(self, low: float, high: float, start: float, end: float) -> None:
        self.low, self.high, self.start, self.end = low, high, start, end

    def __call__(self, value: float) -> float:
        span = (self.high - self.low) or 1
        return self.start + (value - self.low) / span * (self.end - self.start)

    def each(self, values: Sequence[float]) -> list[float]:
        """Each value scaled, as calling the scale on it gives (the same arithmetic in the
        same order), without a call a value: a rating history has thousands (issue 25)."""
        low, start = self.low, self.start
        span, stretch = (self.high - low) or 1, self.end - start
        return [start + (value - low) / span * stretch for value in values]


def supported(figure: dict[str, Any]) -> bool:
    data, layout = figure.get("data") or [], figure.get("layout") or {}
    axes_x = {trace.get("xaxis", "x") for trace in data}
    return (
        bool(data)
        and all(trace.get("type", "scatter") in SUPPORTED for trace in data)
        and axes_x == {"x"}
        and not any(key.startswith("xaxis") and key != "xaxis" for key in layout)
        and all(numeric_y(trace) for trace in data)
    )


# Types of values whose kind is known from their type alone, asked of a whole list at once
# (set(map(type, ...)) runs in C): a rating history's thousands of points were read one by
# one by isinstance, in each of several passes (issue 25). Anything else (bool, numpy's
# numbers, strings) is asked value by value, as before.
PLAIN_NUMBERS = {int, float, type(None)}
NUMBERS = {int, float}


def numeric_y(trace: dict[str, Any]) -> bool:
    """Whether a trace's values run up a numeric axis (not categories, not sideways bars)."""
    if trace.get("orientation") == "h":
        return False
    values = trace.get("y") or []
    if set(map(type, values)) <= PLAIN_NUMBERS:
        return True
    return all(y is None or isinstance(y, int | float) for y in values)


def x_lists(data: list[dict[str, Any]]) -> list[list[Any]]:
    """The traces' x values, each list once: traces sharing one list (a rating history's Elo
    and OpenSkill lines) have the same points, which need reading once."""
    seen: dict[int, list[Any]] = {}
    for trace in data:
        values = trace.get("x")
        if values:
            seen.setdefault(id(values), values)
    return list(seen.values())


def preview(figure: dict[str, Any], point_labels: bool = False) -> SafeString | None:
    """The figure as an SVG picture, or None for a figure this does not draw. With
    point_labels, points are named by their trace's `text` where a name has room, as
    static/charts.js names them on the interactive chart."""
    if not supported(figure):
        return None
    data, layout = figure["data"], figure["layout"]
    height = float(layout.get("height") or 420) * HEIGHT
    x_layout = layout.get("xaxis") or {}
    parts: list[str] = []

    title_lines = wrapped(title_of(layout), WIDTH - 20, FONT + 2)
    top = 12 + len(title_lines) * (FONT + 6)
    for i, line in enumerate(title_lines):
        parts.append(text(WIDTH / 2, 18 + i * (FONT + 6), line, size=FONT + 2, anchor="middle"))

    named = [
        trace
        for trace in data
        if trace.get("name") and trace.get("showlegend", True) and len(data) > 1
    ]
    legend_rows = legend_layout(named)
    x_title_lines = wrapped(title_of(x_layout), WIDTH - 80)
    categories = x_categories(data)  # once: it reads every x of every trace
    tick_rows = 2 if categories is not None else 1
    below = 22 + (tick_rows - 1) * FONT + len(x_title_lines) * (FONT + 4)
    bottom = height - 8 - len(legend_rows) * (FONT + 6) - below
    # A y title reads across its panel's height, in two lines at most (the second moves the
    # plot right); a third would take the plot's width from a phone, so the second ends "…".
    y_title_lines = max(
        (len(y_title(layout, key, top, bottom)) for key in y_keys_of(data)), default=0
    )
    # A note beside the plot (stats.figures.par_line's) takes its width from the plot.
    beside = [note_width(n) + 4 for n in layout.get("annotations") or [] if beside_plot(n)]
    left, right = 58.0 + max(0, y_title_lines - 1) * FONT, WIDTH - 14.0 - max(beside, default=0)

    if categories is not None:
        band = (right - left) / max(len(categories), 1)
        position = {c: left + band * (i + 0.5) for i, c in enumerate(categories)}

        def x_of(value: Any) -> float | None:
            return position.get(value)
    else:
        # Each x read once: a date is parsed for the range, then again for every drawing of
        # its point (a player's rating history, hundreds of dates on two lines, spent most of
        # its picture's time there).
        numbers = {
            v: number
            for values in x_lists(data)
            for v, number in zip(values, seconds_of(values), strict=True)
            if v.__hash__ is not None
        }
        values = [v for v in numbers.values() if v is not None]
        ranged = [as_number(v) for v in x_layout.get("range") or []]
        low, high = (
            ranged if len(ranged) == 2 and None not in ranged else (min(values), max(values))
        )
        pad = (high - low) * 0.03 if not x_layout.get("range") else 0
        x_scale = Scale(low - pad, high + pad, left, right)

        def x_of(value: Any) -> float | None:
            known = value.__hash__ is not None and value in numbers
            number = numbers[value] if known else as_number(value)
            return None if number is None else x_scale(number)

    panels = {}
    notes: list[tuple[float, ...]] = []  # the boxes of the plot's notes ("par (1/n)")
    for key in y_keys_of(data):
        axis = layout.get("yaxis" + key[1:]) or {}
        domain = axis.get("domain") or [0, 1]
        panel_top = bottom - domain[1] * (bottom - top)
        panel_bottom = bottom - domain[0] * (bottom - top)
        traces = [t for t in data if t.get("yaxis", "y") == key]
        y_scale, ticks, whole = y_axis(axis, traces, layout, key, panel_top, panel_bottom)
        panels[key] = y_scale
        for tick in ticks:
            y = y_scale(tick)
            parts.append(line_svg(left, y, right, y, GRID))
            parts.append(text(left - 5, y + 4, number_label(tick, whole), anchor="end"))
        middle = (panel_top + panel_bottom) / 2
        for i, line in enumerate(y_title(layout, key, top, bottom)):
            x = 12 + i * FONT
            parts.append(
                format_html(
                    '<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="middle" '
                    'transform="rotate(-90 {} {})">{}</text>',
                    x,
                    f"{middle:.1f}",
                    FONT - 1,
                    TEXT,
                    x,
                    f"{middle:.1f}",
                    line,
                )
            )
        drawn, boxes = shapes(layout, key, y_scale, left, right)
        parts.extend(drawn)
        notes.extend(boxes)

    # x ticks under the lowest panel
    if categories is not None:
        room = (right - left) / max(len(categories), 1)
        for category in categories:
            lines = wrapped(str(category), room - 4, FONT - 1)
            for i, line in enumerate(lines[:2]):
                shown = shortened(
                    line + (" …" if i == 1 and len(lines) > 2 else ""), room - 4, FONT - 1
                )
                parts.append(
                    text(
                        position[category],
                        bottom + 16 + i * FONT,
                        shown,
                        size=FONT - 1,
                        anchor="middle",
                    )
                )
    else:
        date_axis = x_layout.get("type") == "date" or all(
            isinstance(v, str) for t in data for v in (t.get("x") or [])
        )
        for value in x_tick_values(x_scale.low, x_scale.high, date_axis):
            label = (
                datetime.datetime.fromtimestamp(value, datetime.UTC).strftime("%Y-%m-%d")
                if date_axis
                else number_label(value, False)
            )
            parts.append(text(x_scale(value), bottom + 16, label, size=FONT - 1, anchor="middle"))
    for i, line in enumerate(x_title_lines):
        y = bottom + 36 + (tick_rows - 1) * FONT + i * (FONT + 4)
        parts.append(text((left + right) / 2, y, line, anchor="middle"))

    bars = [t for t in data if t.get("type") == "bar"]
    # Each x list placed once (traces sharing one share its places).
    places = {
        id(values): x_scale.each(seconds_of(values))
        if categories is None and set(map(type, values)) <= NUMBERS
        else [x_of(x) for x in values]
        for values in x_lists(data)
    }
    for index, trace in enumerate(data):
        colour = trace_colour(trace, index)
        y_scale = panels[trace.get("yaxis", "y")]
        if trace.get("type") == "bar":
            parts.extend(
                bar_svg(
                    trace,
                    bars.index(trace),
                    len(bars),
                    categories,
                    x_of,
                    y_scale,
                    colour,
                    left,
                    right,
                )
            )
        else:
            xs = trace.get("x")
            parts.extend(scatter_svg(trace, places[id(xs)] if xs else [], y_scale, colour))
    if point_labels:
        parts.extend(labels(data, x_of, panels, (left, top, right, bottom), notes))

    legend_top = bottom + below + 20
    for row_index, row in enumerate(legend_rows):
        y = legend_top + row_index * (FONT + 6)
        for x, trace in row:
            colour = trace_colour(trace, data.index(trace))
            dash = DASHES.get((trace.get("line") or {}).get("dash"), "")
            parts.append(
                format_html(
                    '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"{}/>',
                    x,
                    y - 4,
                    x + 18,
                    y - 4,
                    colour,
                    format_html(' stroke-dasharray="{}"', dash) if dash else "",
                )
            )
            parts.append(text(x + 22, y, trace["name"]))
    return format_html(
        '<svg class="chart-preview-picture" viewBox="0 0 {} {}" role="img" '
        'font-family="system-ui, sans-serif"><title>{}</title>{}</svg>',
        WIDTH,
        int(height),
        title_of(layout) or "Chart",
        mark_safe("".join(parts)),
    )


# The elements drawn once per point (texts, lines, markers) are written with f-strings and
# `attr` rather than format_html: a chart of a hundred points with error bars has some two
# thousand values, and format_html's lazy-aware escaping of each (numbers formatted here
# need none) was a tenth of a statistics page's time (issue 25). The markup is the same.
# Only what can come from data (texts, colours) is escaped: sizes are numbers, anchors and
# the site's colours are this module's constants, and none has a character to escape. The
# pieces are SafeString(...) rather than mark_safe(...), which goes through a lazy-aware
# wrapper a call (a tenth again of a picture's time).
def attr(value: Any) -> str:
    """A value escaped as format_html escapes it (safe strings as they are)."""
    return str(value) if isinstance(value, SafeData) else html.escape(str(value))


# A colour escaped, remembered: a chart names a handful of colours thousands of times.
ESCAPED_COLOURS: dict[str, str] = {}


def colour_attr(colour: Any) -> str:
    """attr(colour), remembered for plain strings (a figure's colours)."""
    if type(colour) is not str:
        return attr(colour)
    escaped = ESCAPED_COLOURS.get(colour)
    if escaped is None:
        if len(ESCAPED_COLOURS) < 1000:  # bounded: colours come from figures' data
            ESCAPED_COLOURS[colour] = escaped = html.escape(colour)
        else:
            escaped = html.escape(colour)
    return escaped


def text(x: float, y: float, content: str, size: int = FONT, anchor: str = "start") -> str:
    # size: FONT and its neighbours (ints); anchor: start, middle or end (none needs escaping)
    return SafeString(
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{TEXT}" '
        f'text-anchor="{anchor}">{attr(content)}</text>'
    )


def line_svg(x1: float, y1: float, x2: float, y2: float, colour: str, dash: str = "") -> str:
    # dash: one of DASHES' patterns (digits and spaces)
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return SafeString(
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour_attr(colour)}"{dashed}/>'
    )


def shortened(content: Any, width: float, size: int = FONT) -> str:
    content = str(content)
    fits = max(int(width / (0.56 * size)), 3)
    return content if len(content) <= fits else content[: fits - 1] + "…"


def x_categories(data: list[dict[str, Any]]) -> list[Any] | None:
    """The x axis's categories in order of appearance, or None for a numeric or date axis."""
    # A legend-only trace's x is [None]: plotly draws no category for it, nor does this.
    lists = x_lists(data)
    values = [v for x in lists for v in x if v is not None]
    bars = any(t.get("type") == "bar" for t in data)
    if not bars and set(map(type, values)) <= NUMBERS:
        return None  # numbers and dates: never categories
    if bars or any(isinstance(v, str) and as_number(v) is None for v in values):
        categories = list(dict.fromkeys(values))
        # Bars over numbers: plotly's axis is numeric, so they stand in number order.
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in categories):
            return sorted(categories)
        return categories
    return None


def x_tick_values(low: float, high: float, dates: bool) -> list[float]:
    if not dates:
        return nice_ticks(low, high, 4)
    day = 86400
    span_days = max((high - low) / day, 1)
    step = day * max(1, math.ceil(span_days / 3))
    first = math.ceil(low / day) * day
    return [first + i * step for i in range(int((high - first) / step) + 1)][:4]


def y_axis(
    axis: dict[str, Any],
    traces: list[dict[str, Any]],
    layout: dict[str, Any],
    key: str,
    top: float,
    bottom: float,
) -> tuple[Scale, list[float], bool]:
    values: list[float] = []
    for trace in traces:
        if not trace.get("error_y"):
            values += [y for y in trace.get("y") or [] if y is not None]
            continue
        error = trace.get("error_y") or {}
        plus, minus = error.get("array") or [], error.get("arrayminus") or error.get("array") or []
        for i, y in enumerate(trace.get("y") or []):
            if y is None:
                continue
            values.append(y)
            if i < len(plus) and plus[i] is not None:
                values.append(y + plus[i])
            if i < len(minus) and minus[i] is not None:
                values.append(y - minus[i])
    for shape in layout.get("shapes") or []:
        if shape.get("yref", "y") == key and shape.get("y0") is not None:
            values.append(shape["y0"])
    if axis.get("range"):
        low, high = axis["range"]
    else:
        low, high = (min(values), max(values)) if values else (0, 1)
        if axis.get("rangemode") == "tozero" or any(t.get("type") == "bar" for t in traces):
            low = min(low, 0)
        pad = (high - low) * 0.06 or 1
        low, high = low - (pad if low < 0 or axis.get("rangemode") != "tozero" else 0), high + pad
    scale = Scale(low, high, bottom, top)
    rows = max(3, int((bottom - top) / 30))
    ticks = [t for t in nice_ticks(low, high, rows) if low <= t <= high]
    return scale, ticks, axis.get("tickformat") == "d"


def shapes(
    layout: dict[str, Any], key: str, y_scale: Scale, left: float, right: float
) -> tuple[list[str], list[tuple[float, ...]]]:
    """Horizontal lines across the plot (par lines) and their labels, and the labels' boxes
    (point labels keep clear of them)."""
    drawn, boxes = [], []
    for shape in layout.get("shapes") or []:
        if shape.get("type") != "line" or shape.get("yref", "y") != key:
            continue
        if shape.get("xref") != "x domain" or shape.get("y0") != shape.get("y1"):
            continue
        y = y_scale(shape["y0"])
        drawn.append(
            line_svg(left, y, right, y, TEXT, DASHES.get((shape.get("line") or {}).get("dash"), ""))
        )
    size = NOTE_FONT
    for note in layout.get("annotations") or []:
        if note.get("xref") == "x domain" and note.get("yref", "y") == key and note.get("text"):
            width = note_width(note)
            if beside_plot(note):  # in the right margin, centred on the line, a word a line
                lines = wrapped(note["text"], 0, size)
                y = y_scale(note["y"]) + size / 3 - (len(lines) - 1) * (size + 1) / 2
                for i, line in enumerate(lines):
                    drawn.append(text(right + 4, y + i * (size + 1), line, size=size))
                last = y + (len(lines) - 1) * (size + 1)
                boxes.append((right + 4, y - size, right + 4 + width, last + 3))
                continue
            y = y_scale(note["y"]) - 4
            drawn.append(text(right - 2, y, note["text"], size=size, anchor="end"))
            boxes.append((right - 2 - width, y - size, right - 2, y + 3))
    return drawn, boxes


NOTE_FONT = FONT - 2


def note_width(note: dict[str, Any]) -> float:
    """A note's width: beside the plot its longest word (a word a line, so that the plot
    keeps the width a phone's bar labels need), else its whole text."""
    words = str(note["text"]).split() if beside_plot(note) else [str(note["text"])]
    return max(len(word) for word in words) * 0.56 * NOTE_FONT


def beside_plot(note: dict[str, Any]) -> bool:
    """A note past the plot's right edge, starting there (stats.figures.par_line's
    `beside`)."""
    return (
        note.get("xref") == "x domain"
        and note.get("xanchor") == "left"
        and as_number(note.get("x")) is not None
        and note["x"] >= 1
        and bool(note.get("text"))
    )


def y_keys_of(data: list[dict[str, Any]]) -> list[str]:
    """The figure's y axes ("y", "y2"...), in order."""
    return sorted({trace.get("yaxis", "y") for trace in data}, key=lambda k: (len(k), k))


def y_title(layout: dict[str, Any], key: str, top: float, bottom: float) -> list[str]:
    """The y axis's title in the lines it takes across its panel's height (two at most)."""
    axis = layout.get("yaxis" + key[1:]) or {}
    domain = axis.get("domain") or [0, 1]
    room = (domain[1] - domain[0]) * (bottom - top)
    lines = wrapped(title_of(axis), room, FONT - 1) if title_of(axis) else []
    if len(lines) > 2:
        lines = [lines[0], shortened(" ".join(lines[1:]), room, FONT - 1)]
    return lines


def trace_colour(trace: dict[str, Any], index: int) -> str:
    for source in (trace.get("line"), trace.get("marker")):
        colour = (source or {}).get("color")
        if isinstance(colour, str):
            return colour
    return COLOURS[index % len(COLOURS)]


def point_colour(trace: dict[str, Any], i: int, fallback: str) -> str:
    colour = (trace.get("marker") or {}).get("color")
    return colour[i] if isinstance(colour, list) and i < len(colour) else fallback


def error_bar(trace: dict[str, Any], i: int, x: float, y_value: float, y_scale: Scale) -> str:
    error = trace.get("error_y") or {}
    plus, minus = error.get("array") or [], error.get("arrayminus") or error.get("array") or []
    if i >= len(plus) or plus[i] is None or i >= len(minus) or minus[i] is None:
        return ""
    high, low = y_scale(y_value + plus[i]), y_scale(y_value - minus[i])
    colour = error.get("color") or TEXT
    return "".join(
        (
            line_svg(x, high, x, low, colour),
            line_svg(x - 3, high, x + 3, high, colour),
            line_svg(x - 3, low, x + 3, low, colour),
        )
    )


def scatter_svg(
    trace: dict[str, Any], places: list[float | None], y_scale: Scale, colour: str
) -> list[str]:
    """A line trace's picture; `places`: where each of its x values stands (None: nowhere)."""
    mode = trace.get("mode", "lines+markers")
    points = [
        (i, x, y)
        for i, (x, y) in enumerate(zip(places, trace.get("y") or [], strict=False))
        if y is not None and x is not None
    ]
    drawn = [error_bar(trace, i, x, y, y_scale) for i, x, y in points] if "error_y" in trace else []
    if "lines" in mode and len(points) > 1:
        dash = DASHES.get((trace.get("line") or {}).get("dash"), "")
        heights = y_scale.each([y for _, _, y in points])
        drawn.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{}/>',
                " ".join(
                    f"{x:.1f},{height:.1f}"
                    for (_, x, _), height in zip(points, heights, strict=True)
                ),
                colour,
                format_html(' stroke-dasharray="{}"', dash) if dash else "",
            )
        )
    if "markers" in mode and len(points) <= MARKERS_UP_TO:
        radius = min(float((trace.get("marker") or {}).get("size") or 6) / 2, 5)
        drawn += [
            SafeString(  # radius: a float, whose digits need no escaping
                f'<circle cx="{x:.1f}" cy="{y_scale(y):.1f}" r="{radius}" '
                f'fill="{colour_attr(point_colour(trace, i, colour))}"/>'
            )
            for i, x, y in points
        ]
    return drawn


def bar_svg(
    trace: dict[str, Any],
    index: int,
    count: int,
    categories: Sequence[Any] | None,
    x_of: Any,
    y_scale: Scale,
    colour: str,
    left: float,
    right: float,
) -> list[str]:
    band = (right - left) / max(len(categories or []), 1)
    width = band * 0.8 / count
    zero = y_scale(0)
    drawn = []
    for i, (x, y) in enumerate(zip(trace.get("x") or [], trace.get("y") or [], strict=False)):
        centre = x_of(x)
        if centre is None or y is None:
            continue
        x0 = centre - band * 0.4 + index * width
        top = y_scale(y)
        fill = colour_attr(point_colour(trace, i, colour))
        drawn.append(  # as format_html wrote it (see `attr`): a bar a category and trace
            SafeString(
                f'<rect x="{x0:.1f}" y="{min(top, zero):.1f}" width="{width:.1f}" '
                f'height="{abs(zero - top):.1f}" fill="{fill}"/>'
            )
        )
        drawn.append(error_bar(trace, i, x0 + width / 2, y, y_scale))
    return drawn


# Where a point's name may go, in order of preference (static/charts.js's POSITIONS):
# (horizontal, vertical) of the name's box against its marker, -1 left/above, 1 right/below.
LABEL_PLACES = [(0, -1), (1, 0), (-1, 0), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1)]
LABEL_SIZE = 11


def labels(
    data: list[dict[str, Any]],
    x_of: Any,
    panels: dict[str, Scale],
    plot: tuple[float, float, float, float],
    notes: Sequence[tuple[float, ...]] = (),
) -> list[str]:
    """Each named point's name at the first place around its marker that stays inside the
    plot and touches no other name, marker or note of the plot (`notes`, boxes); a name with
    no such place is left out."""
    left, top, right, bottom = plot
    points = []
    for trace in data:
        y_scale = panels[trace.get("yaxis", "y")]
        names = trace.get("text") if isinstance(trace.get("text"), list) else []
        for i, (x, y) in enumerate(zip(trace.get("x") or [], trace.get("y") or [], strict=False)):
            if y is not None and x_of(x) is not None:
                name = names[i] if i < len(names) else None
                points.append((x_of(x), y_scale(y), name))
    taken = [(x - 5, y - 5, x + 5, y + 5) for x, y, _ in points] + list(notes)
    drawn = []
    for x, y, name in points:
        if not name:
            continue
        width, height = len(str(name)) * 0.56 * LABEL_SIZE, LABEL_SIZE
        for h, v in LABEL_PLACES:
            box_left = x - width / 2 + h * (width / 2 + 7)
            box_top = y - height / 2 + v * (height / 2 + 7)
            box = (box_left - 1, box_top - 1, box_left + width + 1, box_top + height + 1)
            inside = box[0] >= left and box[2] <= right and box[1] >= top and box[3] <= bottom
            own = (x - 5, y - 5, x + 5, y + 5)
            if inside and not any(overlap(box, other) for other in taken if other != own):
                taken.append(box)
                drawn.append(
                    text(box_left + width / 2, box_top + height - 2, name, LABEL_SIZE, "middle")
                )
                break
    return drawn


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def legend_layout(traces: list[dict[str, Any]]) -> list[list[tuple[float, dict[str, Any]]]]:
    """Legend entries placed in rows across the width: (x, trace) per entry."""
    rows: list[list[tuple[float, dict[str, Any]]]] = []
    x = WIDTH
    for trace in traces:
        width = 26 + len(str(trace["name"])) * CHAR + 14
        if x + width > WIDTH - 10:
            rows.append([])
            x = 14.0
        rows[-1].append((x, trace))
        x += width
    return rows
