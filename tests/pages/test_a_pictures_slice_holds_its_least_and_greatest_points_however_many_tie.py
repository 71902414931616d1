"""The rating chart's picture of a long line (pages.services.profiles.slices_of): each slice
holds the point of its lowest and highest Elo (the earliest of equals), of its lowest and
highest OpenSkill ordinal, and its first and last point, worked out here by comparing the
points' tuples one slice at a time: the order PICTURE_SQL's min(ARRAY[...]) gave (issue 25).
Values drawn from a few, so that ties of every key are common."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pages.services.profiles import PREVIEW_COLUMNS, slices_of
from ratings.skill import ordinal
from tests.pages.chart_readings_before import line_columns, slices_listed

points = st.lists(
    st.tuples(
        st.integers(0, 40).map(float),  # seconds: many games at one moment
        st.sampled_from([1490.0, 1500.0, 1510.0]),
        st.sampled_from([24.0, 25.0, 26.0]),
        st.sampled_from([7.0, 8.0]),
    ),
    min_size=1,
    max_size=3 * PREVIEW_COLUMNS,
)


def slices_by_comparing_tuples(line, start, span):
    slices: dict[int, list[tuple[float, ...]]] = {}
    for point in line:
        at = min(int(np.floor((point[0] - start) / span * PREVIEW_COLUMNS)), PREVIEW_COLUMNS - 1)
        slices.setdefault(at, []).append(point)
    picked = []
    for at in sorted(slices):
        kept = [
            (s, elo, mu, sigma, float(ordinal((mu, sigma)))) for s, elo, mu, sigma in slices[at]
        ]
        picked.append(
            [
                list(min((elo, s) for s, elo, _, _, _ in kept)),
                list(max((elo, -s) for s, elo, _, _, _ in kept)),
                list(min((k, s, mu, sigma) for s, _, mu, sigma, k in kept)),
                list(max((k, -s, mu, sigma) for s, _, mu, sigma, k in kept)),
                list(min((s, elo, mu, sigma) for s, elo, mu, sigma, _ in kept)),
                list(max((s, elo, mu, sigma) for s, elo, mu, sigma, _ in kept)),
            ]
        )
    return picked


@given(points, st.booleans())
def test_each_slice_holds_the_points_its_tuples_compare_least_and_greatest(line, played_in_order):
    if played_in_order:
        line = sorted(line)
    columns, start, span = line_columns(line)

    found = slices_listed(slices_of(*columns, start, span))

    assert found == slices_by_comparing_tuples(line, start, span)
