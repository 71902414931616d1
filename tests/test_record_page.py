"""The Record page: the engine offers only legal choices step by step, and the finished log
is saved like any upload (issue 5, Record (web))."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from engines.registry import get_game
from games.models import GameLog

STEP = "/record/step/"
DEAL = "/record/deal/"
SAVE = "/record/save/"
NAMES = [{"name": "Marina"}, {"name": "Nemo"}, {"name": "Coral"}]


@pytest.fixture
def scorekeeper(db) -> Any:
    return get_user_model().objects.create_user("keeper")  # no password: hashing one is slow


@pytest.fixture
def signed_in(client: Client, scorekeeper: Any) -> Client:
    client.force_login(scorekeeper)
    return client


def post(client: Client, url: str, body: Any) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data, content_type="application/json")


def start(game: str, players: int = 2, **setup: Any) -> dict[str, Any]:
    return {"game": game, "players": NAMES[:players], "setup": setup, "events": []}


def dealt(client: Client, game: str, players: int = 2, ruleset: str | None = None) -> dict:
    log = start(game, players)
    if ruleset:
        log["ruleset"] = {"name": ruleset}
    response = post(client, DEAL, log)
    assert response.status_code == 200, response.content
    log["setup"] = response.json()["setup"]
    return log


def record_to_the_end(client: Client, log: dict[str, Any], seed: int = 7) -> dict[str, Any]:
    """Pick random offered choices through the endpoint until the game is over."""
    rng = random.Random(seed)
    answer = post(client, STEP, log).json()
    while answer["kind"] != "over":
        choice = rng.choice(answer["choices"])
        if "draw" in choice:
            log["setup"]["stack"].append(choice["draw"])
        else:
            log["events"].append(choice["event"])
        response = post(client, STEP, log)
        assert response.status_code == 200, response.content
        answer = response.json()
    return answer


# --- the page and who may use it -----------------------------------------------------


def test_record_page_sends_anonymous_visitors_to_sign_in(client, db):
    response = client.get("/record/")

    assert response.status_code == 302
    assert "login" in response["Location"]


def test_record_page_offers_every_game_with_its_rulesets(signed_in):
    response = signed_in.get("/record/")

    assert response.status_code == 200
    page = response.content.decode()
    for title in ["Deep Vents", "Deep Sea Adventure", "Deep Sea Adventure Boost", "Deep Dive"]:
        assert f">{title}</option>" in page
    catalogue = response.context["catalogue"]
    vents = next(g for g in catalogue if g["id"] == "deep-vents")
    assert set(vents["rulesets"]) == {"starting-bid", "standard"}
    assert 'id="record-catalogue"' in page
    assert "games/record.js" in page


@pytest.mark.parametrize("url", [STEP, DEAL, SAVE])
def test_json_endpoints_refuse_anonymous_users(client, db, url):
    response = post(client, url, start("deep-dive"))

    assert response.status_code == 403
    assert "sign in" in response.json()["error"]["text"]


def test_step_endpoint_enforces_csrf_for_signed_in_users(scorekeeper):
    client = Client(enforce_csrf_checks=True)
    client.force_login(scorekeeper)

    refused = post(client, STEP, start("deep-dive"))
    page = client.get("/record/")
    token = page.context["csrf_token"]
    accepted = client.post(
        STEP,
        json.dumps(start("deep-dive")),
        content_type="application/json",
        headers={"X-CSRFToken": str(token)},
    )

    assert refused.status_code == 403
    assert accepted.status_code == 200


def test_step_endpoint_only_takes_posts(signed_in):
    assert signed_in.get(STEP).status_code == 405


# --- Deep Vents: hexes drawn as the game goes (DV-2) ----------------------------------


def test_deep_vents_entered_as_drawn_first_asks_for_the_opening_row_dv2(signed_in):
    answer = post(signed_in, STEP, start("deep-vents", stack=[], opening_bidder=1)).json()

    assert answer["kind"] == "draw"
    assert answer["snapshot"] is None
    assert "position 1 of the first row" in answer["waiting_for"]
    anglerfish = next(c for c in answer["choices"] if c["draw"] == "anglerfish")
    assert anglerfish["label"] == "Anglerfish (2 left)"
    assert "deep-vent" not in {c["draw"] for c in answer["choices"]}


def test_a_hex_type_drawn_twice_is_no_longer_offered_dv1(signed_in):
    answer = post(
        signed_in, STEP, start("deep-vents", stack=["anglerfish", "anglerfish"], opening_bidder=0)
    ).json()

    assert "anglerfish" not in {c["draw"] for c in answer["choices"]}
    assert answer["drawn"] == ["anglerfish", "anglerfish"]


def test_a_third_copy_in_the_typed_stack_is_refused_dv1(signed_in):
    stack = ["anglerfish"] * 3
    response = post(signed_in, STEP, start("deep-vents", stack=stack, opening_bidder=0))

    assert response.status_code == 400
    assert response.json()["error"]["rule"] == "DV-1"


def test_deep_vents_bidding_offers_every_legal_bid_and_no_pass_to_the_opener_dv3(signed_in):
    stack = ["anglerfish", "black-smoker", "yeti-crab", "lanternfish", "porous-rock", "gulper-eel"]
    answer = post(signed_in, STEP, start("deep-vents", stack=stack, opening_bidder=1)).json()

    assert answer["kind"] == "decision"
    assert answer["seat"] == 1
    events = [c["event"] for c in answer["choices"]]
    assert events == [{"type": "bid", "seat": 1, "amount": a} for a in range(0, 11)]
    assert answer["snapshot"]["row"][0] == {"position": 1, "hex": "anglerfish", "archaea": 0}


def test_after_a_take_the_next_take_waits_for_the_hex_drawn_into_the_row_dv2(signed_in):
    stack = ["anglerfish", "black-smoker", "yeti-crab", "lanternfish", "porous-rock", "gulper-eel"]
    log = start("deep-vents", stack=stack, first_player=0)
    log["ruleset"] = {"name": "standard"}
    log["events"] = [{"type": "take", "seat": 0, "position": 2}]

    placing = post(signed_in, STEP, log).json()
    assert placing["kind"] == "decision"
    assert {c["event"]["type"] for c in placing["choices"]} == {"place"}
    assert {tuple(c["event"]["hex"]) for c in placing["choices"]} == {
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, -1),
        (-1, 1),
    }

    log["events"].append({"type": "place", "seat": 0, "hex": [1, 0]})
    log["events"].append({"type": "grow", "seat": 0, "hex": [0, 0]})
    answer = post(signed_in, STEP, log).json()
    while answer["kind"] == "decision" and answer["seat"] == 0:
        log["events"].append(answer["choices"][0]["event"])
        answer = post(signed_in, STEP, log).json()

    assert answer["kind"] == "draw"
    assert "position 6 of the row" in answer["waiting_for"]
    assert len(answer["snapshot"]["row"]) == 5


def test_a_whole_deep_vents_game_entered_as_drawn_can_be_recorded(signed_in):
    log = start("deep-vents", players=3, stack=[], opening_bidder=2)

    answer = record_to_the_end(signed_in, log)

    assert answer["kind"] == "over"
    assert sorted(answer["outcome"]["ranks"]) == [1, 2, 3]
    assert answer["outcome"]["scores"] == [p["score"] for p in answer["snapshot"]["players"]]


def test_choice_labels_name_the_hex_taken_and_what_it_costs(signed_in):
    log = dealt(signed_in, "deep-vents", ruleset="standard")
    first = post(signed_in, STEP, log).json()
    take_two = next(c for c in first["choices"] if c["event"].get("position") == 2)

    row = first["snapshot"]["row"]
    name = get_game("deep-vents").editions()["first"].hexes[row[1]["hex"]].name
    assert take_two["label"] == f"take {name} at position 2 (pay 1)"


# --- chance outcomes typed in (dice, colour and shark dice, opened shells) ------------


def test_deep_sea_adventure_dice_are_typed_in_as_chance_outcomes_dsa1(signed_in):
    log = dealt(signed_in, "deep-sea-adventure")

    answer = post(signed_in, STEP, log).json()

    assert answer["kind"] == "chance"
    dice = sorted(tuple(c["event"]["dice"]) for c in answer["choices"])
    assert dice == [(a, b) for a in (1, 2, 3) for b in (1, 2, 3)]
    assert {c["label"] for c in answer["choices"]} >= {"roll 1 + 1", "roll 3 + 2"}


def test_a_die_face_that_does_not_exist_gets_the_engines_message_dsa1(signed_in):
    log = dealt(signed_in, "deep-sea-adventure")
    log["events"] = [{"type": "roll", "seat": 0, "dice": [4, 1]}]

    response = post(signed_in, STEP, log)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["index"] == 0
    assert error["rule"] == "DSA-1"
    assert "die 1 has no face 4" in error["text"]


def test_deep_sea_adventure_chips_entered_as_dealt_are_checked_dsa1(signed_in):
    response = post(signed_in, STEP, start("deep-sea-adventure", chips=[0, 1, 2]))

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "setup.chips"


def test_deep_dive_colour_die_and_shark_die_are_chance_choices_dd2_dd3(signed_in):
    log = start("deep-dive")
    answer = post(signed_in, STEP, log).json()
    colours = [c["event"]["colour"] for c in answer["choices"]]
    log["events"] = [
        {"type": "dive", "seat": 0, "colour": "blue"},
        {"type": "dive", "seat": 1, "colour": "red"},
    ]
    shark = post(signed_in, STEP, log).json()

    assert answer["kind"] == "chance"
    assert colours == ["red", "orange", "yellow", "green", "blue", "purple"]
    assert shark["kind"] == "chance"
    assert shark["seat"] == 0
    assert {c["event"]["type"] for c in shark["choices"]} == {"shark"}


def test_opening_more_black_pearls_than_exist_is_refused_with_dd4(signed_in):
    log = start("deep-dive")
    log["events"] = [
        {"type": "dive", "seat": 0, "colour": "blue"},
        {"type": "dive", "seat": 1, "colour": "red"},
        {"type": "shark", "seat": 0, "colour": "green"},
        {"type": "surface", "seat": 0},
        {"type": "open", "seat": 0, "white": 0, "black": 2, "empty": 0},
    ]

    response = post(signed_in, STEP, log)

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["index"], error["seat"], error["rule"]) == (4, 0, "DD-4")
    assert "opens 3 shells" in error["message"]


# --- bad input: a 400 with the engine's message, never a 500 -------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("{not json", "invalid JSON"),
        (
            '{"game": "deep-dive", "players": [{"name": "A"}, {"name": "B"}], "setup": {},'
            ' "events": [{"type": "dive", "seat": 0, "colour": NaN}]}',
            "NaN",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (
            '{"game": "deep-dive", "players": [], "setup": {}, "events": [], "x": '
            + "1" * 5000
            + "}",
            "too long",
        ),
        ("[1, 2]", "JSON object"),
        ('{"game": "chess", "players": [{"name": "A"}], "setup": {}}', "unknown game"),
        ('{"game": "deep-dive", "players": [{"name": "A"}], "setup": {}, "events": []}', "2-4"),
        (
            '{"game": "deep-dive", "players": [{"name": "A"}, {"name": "B"}], "setup": {},'
            ' "events": [{"type": "dive"}]}',
            "JSON Schema",
        ),
        (
            '{"game": "deep-dive", "players": [{"name": "A"}, {"name": "B"}], "setup": {},'
            ' "events": [], "result": {"scores": [1]}}',
            "unknown field 'result'",
        ),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_bad_input_gets_a_400_naming_the_problem(signed_in, body, expected):
    response = post(signed_in, STEP, body)

    assert response.status_code == 400
    assert expected in response.json()["error"]["text"]


def test_an_event_after_the_end_of_the_game_is_refused(signed_in):
    log = start("deep-dive")
    record_to_the_end(signed_in, log)
    log["events"].append({"type": "stay", "seat": 0})

    response = post(signed_in, STEP, log)

    assert response.status_code == 400
    assert response.json()["error"]["index"] == len(log["events"]) - 1
    assert "already over" in response.json()["error"]["text"]


# --- dealing and saving --------------------------------------------------------------


@pytest.mark.parametrize(
    "game", ["deep-vents", "deep-sea-adventure", "deep-sea-adventure-boost", "deep-dive"]
)
def test_a_random_deal_is_a_setup_the_engine_accepts(signed_in, game):
    log = dealt(signed_in, game)

    answer = post(signed_in, STEP, log).json()

    assert answer["kind"] in {"decision", "chance"}
    assert answer["snapshot"] is not None


def test_saving_an_unfinished_game_is_refused_and_stores_nothing(signed_in):
    log = start("deep-dive")
    log["events"] = [{"type": "dive", "seat": 0, "colour": "blue"}]

    response = post(signed_in, SAVE, log)

    assert response.status_code == 400
    assert "not over yet" in response.json()["error"]["text"]
    assert not GameLog.objects.exists()


def test_a_saved_recording_is_stored_verified_and_leads_to_its_game_page(
    signed_in, scorekeeper, django_capture_on_commit_callbacks
):
    log = dealt(signed_in, "deep-sea-adventure", players=3)
    record_to_the_end(signed_in, log)

    with django_capture_on_commit_callbacks(execute=True):
        response = post(signed_in, SAVE, log)

    assert response.status_code == 201
    stored = GameLog.objects.get()
    assert response.json() == {"log": stored.pk, "url": f"/games/{stored.pk}/"}
    assert response["Location"] == f"/games/{stored.pk}/"
    assert stored.upload.submitted_by == scorekeeper
    assert stored.status == GameLog.Status.VERIFIED
    saved = json.loads(stored.raw)
    assert saved["events"] == log["events"]
    assert saved["result"]["scores"] == [s.score for s in stored.game.seats.order_by("seat")]
    page = signed_in.get(response.json()["url"])
    assert page.status_code == 200
    assert "Verified" in page.content.decode()
