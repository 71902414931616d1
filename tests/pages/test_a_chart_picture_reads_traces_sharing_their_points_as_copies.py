"""A chart's picture reads a list of x values shared by several traces once, and lists of
plain numbers or dates by their types at once (issue 25: a rating history of thousands of
points): the picture is the one drawn from each trace's own copy, value by value."""

import datetime

from common.chart_preview import preview


def figure(x_of_trace, first_y, second_y):
    return {
        "data": [
            {"type": "scatter", "mode": "lines", "x": x_of_trace(0), "y": first_y},
            {"type": "scatter", "mode": "lines", "x": x_of_trace(1), "y": second_y, "yaxis": "y2"},
        ],
        "layout": {
            "xaxis": {"type": "date"},
            "yaxis": {"domain": [0.55, 1]},
            "yaxis2": {"domain": [0, 0.42]},
        },
    }


def test_traces_sharing_one_list_of_dates_as_seconds_draw_as_traces_with_their_texts():
    moments = [
        datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC) + datetime.timedelta(hours=7 * i)
        for i in range(300)
    ]
    shared = [moment.timestamp() for moment in moments]  # their seconds
    first = [1000 + (i * 37) % 91 + 0.5 for i in range(300)]
    second = [(i * 13) % 50 for i in range(300)]

    picture = preview(figure(lambda _: shared, first, second))

    copies = preview(figure(lambda _: [m.isoformat() for m in moments], first, second))
    assert picture is not None and "<polyline" in picture
    assert picture == copies


def test_values_of_other_types_are_still_read_one_by_one():
    # bools are numbers to isinstance, and numeric strings are categories only as strings
    as_bools = preview(figure(lambda _: [1, 2, 3], [True, False, True], [0, 1, 0]))
    as_ints = preview(figure(lambda _: [1, 2, 3], [1, 0, 1], [0, 1, 0]))
    assert as_bools == as_ints
    assert preview(figure(lambda _: ["a", "b", "c"], [1, 2, 3], [3, 2, 1])) is not None
