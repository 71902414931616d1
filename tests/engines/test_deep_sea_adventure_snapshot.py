"""snapshot(): everything on the table, JSON-able, at any event."""

import json

from engines.deep_sea_adventure.game import DeepSeaAdventure

GAME = DeepSeaAdventure()
CHIPS = [value for level in GAME.editions()["first"].levels for value in level]


def test_the_snapshot_shows_path_divers_air_and_the_pending_decision():
    state = GAME.new_state(GAME.ruleset(), 2, {"chips": CHIPS})
    state.path[31] = ((4, 12), (3, 8))
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 2]})
    state.apply_action({"type": "pick", "seat": 0})
    snapshot = json.loads(json.dumps(state.snapshot()))
    assert snapshot["dive"] == 1
    assert snapshot["air"] == 25
    assert snapshot["path"][2] == {"space": 3, "kind": "blank"}
    assert snapshot["path"][31]["kind"] == "stack"
    assert snapshot["path"][31]["chips"] == [{"level": 4, "value": 12}, {"level": 3, "value": 8}]
    assert snapshot["divers"][0] == {
        "seat": 0,
        "banked": [],
        "points": 0,
        "position": 3,
        "direction": "down",
        "status": "diving",
        "carried": [[{"level": 1, "value": 1}]],
    }
    assert snapshot["divers"][1]["status"] == "aboard"
    assert snapshot["pending"] == {"seat": 1, "decision": "roll"}
