"""A rating chart's Elo values are rounded to a tenth by numpy (elo.tenths), as round(x, 1)
rounds each, to the last bit: over the floats ratings take, the true halves (0.25, 1500.75)
and the floats a few units in the last place either side of every half (issue 25)."""

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from ratings.elo import tenths

RATINGS = st.floats(min_value=-10_000.0, max_value=10_000.0, allow_nan=False)
# n / 4: the floats whose tenths' digit is followed by an exact 5 (x.25, x.75), and whole ones
QUARTERS = st.integers(-40_000, 40_000).map(lambda n: n / 4)


@st.composite
def near_halves(draw: st.DrawFn) -> float:
    """A float within a few units in the last place of a half of a tenth, (k + 1/2) / 10."""
    value = (draw(st.integers(-100_000, 100_000)) + 0.5) / 10
    for _ in range(abs(steps := draw(st.integers(-4, 4)))):
        value = math.nextafter(value, math.copysign(math.inf, steps))
    return value


def bits(values: list[float]) -> list[str]:
    return ["nan" if math.isnan(value) else value.hex() for value in values]


def assert_rounded_as_round_does(values: list[float]) -> None:
    assert bits(tenths(values)) == bits([round(value, 1) for value in values])
    assert bits(tenths(np.array(values, dtype=float))) == bits([round(v, 1) for v in values])


@given(st.lists(st.one_of(RATINGS, QUARTERS, near_halves()), max_size=50))
def test_ratings_halves_and_their_neighbours_are_rounded_as_round_rounds_them(values):
    assert_rounded_as_round_does(values)


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_any_float_at_all_is_rounded_as_round_rounds_it(value):
    assert_rounded_as_round_does([value])


def test_the_halves_of_tenths_go_to_the_even_tenth_and_no_value_is_lost():
    values = [0.25, 0.75, -0.25, 1500.25, 1500.75, 0.15, 2.675, -0.04, 0.0, 1e300]
    assert tenths(values) == [0.2, 0.8, -0.2, 1500.2, 1500.8, 0.1, 2.7, -0.0, 0.0, 1e300]
    assert tenths([]) == []
