"""A cell's activation order as one int (`order_rank`, `ORDER_RANK`) sorts cells as the
rulebook orders them: top to bottom, then left to right (DV-4)."""

from hypothesis import given
from hypothesis import strategies as st

from engines.deep_vents.board import ORDER_RANK, order_rank

cells = st.tuples(st.integers(-1000, 1000), st.integers(-1000, 1000))


def rulebook_order(at):
    q, r = at
    return (r, q + r / 2)


@given(cells, cells)
def test_order_rank_orders_two_cells_as_the_rulebook_does_dv_4(a, b):
    assert (order_rank(a) < order_rank(b)) == (rulebook_order(a) < rulebook_order(b))
    assert (order_rank(a) == order_rank(b)) == (a == b)


@given(cells)
def test_the_precomputed_ranks_answer_for_near_and_far_cells_alike(at):
    assert ORDER_RANK[at] == order_rank(at)
