"""A finished Deep Vents game holds no reference cycle (its tiles let go of their
neighbours at the end, DeepVentsState._game_over): a verified log, or a playout's copy, is
freed as soon as it is dropped, not left for the garbage collector (issue 25)."""

import gc

from deep_vents_support import simulated_log

from engines import replay


def test_a_replayed_game_leaves_nothing_for_the_garbage_collector():
    log = simulated_log(players=4, seed=5)
    replay(log, collect_facts=True)  # compiles the schema checks: not what is measured
    gc.collect()
    gc.disable()
    try:
        done = replay(log, collect_facts=True)
        assert done.outcome.scores == tuple(log["result"]["scores"])
        del done
        assert gc.collect() == 0
    finally:
        gc.enable()
