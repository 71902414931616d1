"""B-4: both Boost rules on by default, each switchable; the expansion dice are refused."""

import pytest

from engines.core.errors import MalformedLogError, UnsupportedRulesetError
from engines.core.replay import verify
from engines.core.schema import FORMAT
from engines.deep_sea_adventure.game import DeepSeaAdventure, DeepSeaAdventureBoost

GAME = DeepSeaAdventureBoost()
CHIPS = [value for level in GAME.editions()["boost"].levels for value in level]


def test_the_boost_edition_defaults_to_both_rules_on():
    ruleset = GAME.ruleset()
    assert ruleset.options["choose_two"] is True
    assert ruleset.options["boost"] is True


@pytest.mark.parametrize(
    ("options", "choose_two", "boost"),
    [({"boost": False}, True, False), ({"choose_two": False}, False, True)],
)
def test_each_boost_rule_is_switched_off_by_its_option(options, choose_two, boost):
    state = GAME.new_state(GAME.ruleset({"options": options}), 2, {"chips": CHIPS})
    assert (state.choose_two, state.boost_allowed) == (choose_two, boost)


@pytest.mark.parametrize(
    "spec",
    [{"name": "expansion-dice"}, {"name": "standard", "options": {"expansion_dice": True}}],
)
def test_asking_for_the_expansion_dice_is_refused_citing_b4(spec):
    with pytest.raises(UnsupportedRulesetError) as caught:
        GAME.ruleset(spec)
    assert caught.value.rule == "B-4"
    assert "expansion-dice variant is not defined by the source" in str(caught.value)


def test_a_log_asking_for_the_expansion_dice_is_refused_by_verify():
    log = {
        "format": FORMAT,
        "game": GAME.id,
        "ruleset": {"name": "standard", "options": {"expansion_dice": True}},
        "players": [{"name": "Ann"}, {"name": "Bo"}],
        "setup": {"chips": CHIPS},
        "events": [],
    }
    with pytest.raises(UnsupportedRulesetError, match=r"\[B-4\]"):
        verify(log)


def test_a_boost_event_in_an_original_game_log_fails_its_schema():
    log = {
        "format": FORMAT,
        "game": DeepSeaAdventure.id,
        "players": [{"name": "Ann"}, {"name": "Bo"}],
        "setup": {"chips": CHIPS},
        "events": [{"type": "boost", "seat": 0}],
    }
    with pytest.raises(MalformedLogError, match='event 0 \\(seat 1\\): there is no "boost" event'):
        verify(log)


def test_the_original_game_has_no_boost_options():
    with pytest.raises(UnsupportedRulesetError, match="unknown option 'boost'"):
        DeepSeaAdventure().ruleset({"options": {"boost": True}})
