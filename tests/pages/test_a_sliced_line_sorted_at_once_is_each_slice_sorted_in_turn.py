"""The rating chart's picture of a long line (pages.services.profiles.sliced_line) sorts its
slices' points at once: the same points, in the same order, each once, as a set and a sort
a slice gave them (the line as it was drawn before, kept here; issue 25). Values drawn from
a few, so that ties and repeated points are common, lines played in order or not."""

from hypothesis import given
from hypothesis import strategies as st

from pages.services.profiles import PREVIEW_COLUMNS, sliced_line, slices_of
from ratings.elo import tenths
from ratings.skill import display_ratings
from tests.pages.chart_readings_before import line_columns, slices_listed

points = st.lists(
    st.tuples(
        st.integers(0, 60).map(float),  # seconds: many games at one moment
        st.sampled_from([1490.0, 1500.0, 1510.0, 1500.05]),
        st.sampled_from([24.0, 25.0, 26.0]),
        st.sampled_from([7.0, 8.0]),
    ),
    min_size=1,
    max_size=3 * PREVIEW_COLUMNS,
)


def line_sorted_a_slice_at_a_time(slices: list[list[list[float]]]) -> dict[str, list]:
    """sliced_line as it was: a set of each slice's points, sorted, a slice at a time."""
    elo: list[tuple[float, ...]] = []
    skill: list[tuple[float, ...]] = []
    for i, (low, high, skill_low, skill_high, start, end) in enumerate(slices):
        elos = {(low[1], low[0]), (-high[1], high[0])}
        skills = {(skill_low[1], *skill_low[2:]), (-skill_high[1], *skill_high[2:])}
        for end_point in [start] * (i == 0) + [end] * (i == len(slices) - 1):
            elos.add((end_point[0], end_point[1]))
            skills.add((end_point[0], *end_point[2:]))
        elo += sorted(elos)
        skill += sorted(skills)
    elo_x, elos = zip(*elo, strict=True)
    skill_x, mus, sigmas = zip(*skill, strict=True)
    return {
        "elo_x": list(elo_x),
        "elo": tenths(elos),
        "skill_x": list(skill_x),
        "skill": display_ratings(mus, sigmas),
    }


@given(points, st.booleans())
def test_a_sliced_line_is_the_line_sorted_a_slice_at_a_time(line, played_in_order):
    if played_in_order:
        line = sorted(line)
    columns, start, span = line_columns(line)
    slices = slices_of(*columns, start, span)

    drawn = sliced_line(slices)

    assert drawn == line_sorted_a_slice_at_a_time(slices_listed(slices))
    assert all(type(x) is float for x in drawn["elo_x"] + drawn["skill_x"])
