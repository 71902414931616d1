"""Deep Dive setup and edition data (DD-1, DD-6)."""

import json
from pathlib import Path

import pytest

from engines import MalformedLogError, UnsupportedRulesetError, get_game
from engines.deep_dive.edition import Edition, editions

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("deep-dive")


@pytest.mark.parametrize(("players", "whites"), [(4, 30), (3, 25), (2, 20)])
def test_pool_sets_aside_five_white_pearls_per_missing_player_dd1(players, whites):
    state = GAME.new_state(GAME.ruleset(), players, {})
    snapshot = state.snapshot()
    assert snapshot["pool"]["unopened"] == {"white": whites, "black": 6, "empty": 12}
    assert snapshot["pool"]["shells"] == whites + 18
    assert snapshot["white_set_aside"] == 30 - whites


def test_board_has_six_sections_with_their_shell_counts_dd1():
    sections = editions()["first"].section_shells
    assert dict(sections) == {
        "red": 1, "orange": 1, "yellow": 2, "green": 2, "blue": 3, "purple": 3,
    }  # fmt: skip


def test_seat_zero_starts_the_first_round_and_everyone_dives_dd6():
    state = GAME.new_state(GAME.ruleset(), 3, {})
    assert state.snapshot()["starting_seat"] == 0
    assert state.current_seat() == 0
    assert state.is_chance_node()
    assert {event["type"] for event in state.legal_actions()} == {"dive"}


def test_the_setup_is_empty_because_nothing_is_dealt():
    assert GAME.new_setup(GAME.ruleset(), 4, None) == {}
    with pytest.raises(MalformedLogError, match="no setup fields"):
        GAME.new_state(GAME.ruleset(), 4, {"removed": 5})


def test_five_players_are_refused_by_the_edition_dd1():
    with pytest.raises(UnsupportedRulesetError, match="no pool for 5 players"):
        GAME.new_state(GAME.ruleset(), 5, {})


def test_an_unknown_edition_is_refused():
    with pytest.raises(UnsupportedRulesetError, match="unknown edition"):
        GAME.ruleset({"name": "standard", "edition": "second"})


def test_edition_with_a_die_face_without_section_is_rejected():
    data = json.loads((ROOT / "engines/deep_dive/editions.json").read_text())["first"]
    data["shark_die"] = [*data["shark_die"][:-1], "black"]
    with pytest.raises(ValueError, match="die faces without a section"):
        Edition.from_json("broken", data)
