"""A leaderboard row's trend (ratings.leaderboard.sparkline_points) writes each point's x
once per count of points (the same on every row): the points are those each point's own
formula gives, for any count and width."""

import random

from ratings.leaderboard import sparkline_points


def point_by_point(values: list[float], width: int = 100, height: int = 20) -> str:
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - (v - low) / span * height:.1f}" for i, v in enumerate(values)
    )


def test_the_points_are_each_points_formula_for_any_count_and_width():
    draw = random.Random(25)
    for count in [0, 1, 2, 3, 7, 19, 20]:
        for width in [100, 37]:
            values = [1500 + draw.uniform(-80, 80) for _ in range(count)]
            assert sparkline_points(values, width) == point_by_point(values, width)
    assert sparkline_points([1500.0] * 5) == point_by_point([1500.0] * 5)  # a flat trend
