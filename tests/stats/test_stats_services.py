"""Worked examples of the statistics: intervals, normalisation, hex lines."""

from types import SimpleNamespace

import pytest

from engines.registry import GAMES
from stats.adapters import ADAPTERS
from stats.models import HEX_LINE_COUNTERS
from stats.services.game_lines import deep_vents_hex_lines
from stats.services.intervals import difference, mean, relative_rate, wilson


def test_wilson_interval_of_8_out_of_10_matches_the_textbook_value():
    estimate = wilson(8, 10)
    assert estimate.value == 0.8
    assert estimate.low == pytest.approx(0.4902, abs=1e-4)
    assert estimate.high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval_stays_inside_zero_and_one():
    assert wilson(0, 5).low == 0.0
    assert wilson(5, 5).high == 1.0
    assert wilson(0, 0).value is None


def test_relative_rate_makes_two_and_four_player_tables_comparable():
    # Par at 2 players is 1/2, at 4 players 1/4: winning at par is 1.0 either way.
    two = relative_rate(wins=50, expected=50, trials=100)
    four = relative_rate(wins=25, expected=25, trials=100)
    assert two.value == four.value == 1.0
    mixed = relative_rate(wins=50 + 50, expected=50 + 25, trials=200)
    assert mixed.value == pytest.approx(100 / 75)


def test_difference_of_estimates_has_a_wider_interval_than_either():
    a, b = wilson(60, 100), wilson(40, 100)
    d = difference(a, b)
    assert d.value == pytest.approx(0.2)
    assert d.high - d.low > a.high - a.low


def test_mean_interval_from_sums():
    values = [1.0, 2.0, 3.0, 4.0]
    estimate = mean(sum(values), sum(v * v for v in values), len(values))
    assert estimate.value == 2.5
    assert estimate.low < 2.5 < estimate.high


def test_hex_lines_count_offers_takes_passes_and_use():
    row = [
        {"position": 1, "hex": "anglerfish", "archaea": 0},
        {"position": 2, "hex": "lanternfish", "archaea": 1},
    ]
    facts = [
        {"type": "offer", "seat": 0, "turn": 1, "row": row},
        {
            "type": "take",
            "seat": 0,
            "turn": 1,
            "hex": "lanternfish",
            "position": 2,
            "paid": 1,
            "archaea": 1,
            "offered": ["anglerfish", "lanternfish"],
        },
        {"type": "offer", "seat": 1, "turn": 7, "row": row},
        {
            "type": "take",
            "seat": 1,
            "turn": 7,
            "hex": "anglerfish",
            "position": 1,
            "paid": 0,
            "archaea": 0,
            "offered": ["anglerfish", "lanternfish"],
        },
        {
            "type": "hex-totals",
            "hexes": [[0, "lanternfish", 1, 2, 0, 0, 0, 0], [1, "anglerfish", 0, 0, 1, 0, 1, 3]],
        },
        {"type": "decimate", "seat": 0, "hex": "lanternfish"},
    ]
    lines = {
        (seat, hex_id): SimpleNamespace(**dict(zip(HEX_LINE_COUNTERS, counts, strict=True)))
        for seat, hex_id, *counts in deep_vents_hex_lines(facts).rows()
    }
    lantern = lines[(0, "lanternfish")]
    assert (lantern.offered, lantern.taken, lantern.position, lantern.paid) == (1, 1, 2, 1)
    assert (lantern.owned, lantern.passed, lantern.early, lantern.late) == (1, 0, 1, 0)
    assert (lantern.grows, lantern.grow_archaea, lantern.decimated, lantern.survived) == (
        1,
        2,
        1,
        0,
    )
    passed = lines[(0, "anglerfish")]  # offered to the winner, who took the lanternfish
    assert (passed.passed, passed.offered, passed.owned) == (1, 1, 0)
    angler = lines[(1, "anglerfish")]
    assert (angler.late, angler.early, angler.attacks, angler.damage) == (1, 0, 1, 3)
    assert angler.survived == 1
    assert lines[(1, "lanternfish")].passed == 1


def test_every_game_of_the_engine_registry_has_a_statistics_adapter():
    assert set(ADAPTERS) == set(GAMES)
