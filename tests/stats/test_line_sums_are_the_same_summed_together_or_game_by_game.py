"""The hex cube's and the players' hex tally's sums are summed by numpy and made Python
lists by numpy, a key's row at once (stats.services.aggregate.add_hexes, as_lists, add_rows,
issue 25): every cube's sums must be what adding the lines game by game gives, to the last
digit and as the same Python types (whole counters ints, the rest floats), and a
retraction's sums their negation, with 0.0 where the sums are 0 (never -0.0). A rebuild sums
its games in chunks (CHUNK), so its later chunks add to keys met before: summed a game a
chunk, every key is met again."""

import math

import pytest
from stats_support import verified_games

from games.models import Game, Source
from stats.services import aggregate
from stats.services.aggregate import SUMMED, built_line_sums, line_sums, lines_replayed

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(django_capture_on_commit_callbacks) -> list[Game]:
    """Games of every kind of line: Deep Vents with named players (hex lines, the players'
    tally) and bots, Deep Sea Adventure and Deep Dive (round lines)."""
    capture = django_capture_on_commit_callbacks
    return [
        *verified_games(capture, "deep-vents", 4, 4, "sums-human", None, Source.HUMAN),
        *verified_games(capture, "deep-vents", 3, 3, seed="sums-bots"),
        *verified_games(capture, "deep-sea-adventure", 3, 2, seed="sums-dsa"),
        *verified_games(capture, "deep-dive", 4, 2, seed="sums-dd"),
    ]


def typed(sums: aggregate.Sums) -> dict:
    """The sums with each value's type beside it, by cube."""
    return {
        spec.cube.__name__: {
            key: [(type(value), value) for value in total] for key, total in sums[spec].items()
        }
        for spec in SUMMED
    }


def test_every_kind_of_line_is_summed(games):
    sums = line_sums([game.pk for game in games])
    assert all(sums[spec] for spec in SUMMED)  # every cube and the tally have keys


def test_summed_a_game_at_a_time_the_sums_are_the_same(games, monkeypatch):
    ids = [game.pk for game in games]
    together = typed(line_sums(ids))
    built = typed(built_line_sums(lines_replayed(games)))

    monkeypatch.setattr(aggregate, "CHUNK", 1)

    assert typed(line_sums(ids)) == together
    assert typed(built_line_sums(lines_replayed(games))) == built
    # The simulated games: a human game's band is its players' rating, which their games
    # verified since have moved, so replaying it now may put it in another band.
    simulated = [game for game in games if game.source == Source.SIMULATED]
    assert typed(built_line_sums(lines_replayed(simulated))) == typed(
        line_sums([game.pk for game in simulated])
    )


def test_a_retractions_sums_are_the_negation_with_no_negative_zero(games):
    ids = [game.pk for game in games]
    added, taken = line_sums(ids), line_sums(ids, -1)
    zeros = 0
    for spec in SUMMED:
        assert list(taken[spec]) == list(added[spec])
        for key, total in taken[spec].items():
            assert total == [-value for value in added[spec][key]]
            for value, value_added in zip(total, added[spec][key], strict=True):
                assert type(value) is type(value_added)
                if value == 0:
                    zeros += 1
                    assert math.copysign(1, value) == 1, (spec.cube.__name__, key, total)
    assert zeros  # some sums are 0: the check above checked something
