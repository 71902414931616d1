"""The Record page's step endpoint names Deep Vents choices by hex and neighbour, never by
coordinates, says what each is about on the drawn map, and what the player is asked (issue
16); the engine words them (engines/deep_vents/describe.py), the view only passes them on."""

import json

STEP = "/record/step/"
ROW = ["yeti-crab", "goblin-shark", "porous-rock", "white-smoker", "anglerfish", "lanternfish"]


def step(client, events):
    log = {
        "game": "deep-vents",
        "ruleset": {"name": "standard"},
        "players": [{"name": "Marina"}, {"name": "Nemo"}],
        "setup": {"stack": [*ROW, "black-smoker"], "first_player": 0},
        "events": events,
    }
    response = client.post(STEP, json.dumps(log), content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def test_placements_are_named_by_a_neighbour_and_a_direction_with_their_cell_on_the_map(
    signed_in,
):
    answer = step(signed_in, [{"type": "take", "seat": 0, "position": 1}])
    choices = {c["label"]: c for c in answer["choices"]}

    assert answer["asked"] == "place the Yeti Crab"
    assert answer["seat"] == 0
    assert set(choices) == {
        f"place Yeti Crab {direction} of Deep Vent"
        for direction in ("east", "west", "north-east", "north-west", "south-east", "south-west")
    }
    east = choices["place Yeti Crab east of Deep Vent"]
    assert east["event"] == {"type": "place", "seat": 0, "hex": [1, 0]}
    assert east["target"] == {"seat": 0, "at": [1, 0]}


def test_grow_and_take_choices_name_hexes_and_point_at_them(signed_in):
    taking = step(signed_in, [])
    events = [
        {"type": "take", "seat": 0, "position": 1},
        {"type": "place", "seat": 0, "hex": [1, 0]},
    ]
    growing = step(signed_in, events)

    assert taking["asked"] == "take a hex from the row"
    assert taking["choices"][2]["label"] == "take Porous Rock at position 3 (pay 2)"
    assert taking["choices"][2]["target"] == {"row": 3}
    assert growing["asked"] == "grow or trigger Deep Vent"
    assert [(c["label"], c["target"]) for c in growing["choices"]] == [
        ("grow Deep Vent", {"seat": 0, "at": [0, 0]})
    ]
    assert not any("[" in c["label"] for c in taking["choices"] + growing["choices"])


def test_a_dice_game_is_asked_in_words_and_its_choices_point_at_nothing_on_a_map(signed_in):
    log = {"game": "deep-dive", "players": [{"name": "Marina"}, {"name": "Nemo"}], "setup": {}}
    answer = signed_in.post(STEP, json.dumps(log), content_type="application/json").json()

    assert answer["asked"] == "roll the colour die"
    assert answer["choices"][0] == {
        "event": {"type": "dive", "seat": 0, "colour": "red"},
        "label": "colour die: red",
    }
