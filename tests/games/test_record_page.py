"""The Record page: the engine offers only legal choices step by step, and the finished log
is saved like any upload (issue 5, Record (web)); a tournament table's game is recorded from
its seating and becomes the table's result (issue 6)."""

from __future__ import annotations

import datetime
import json
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django_fixtures import signed_in_as

from engines.core.replay import replay
from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameLog, Source, Upload
from players.models import Player
from tournaments.demo import simulated_table_log
from tournaments.models import Round, Table, TableSeat, Tournament

STEP = "/record/step/"
DEAL = "/record/deal/"
SAVE = "/record/save/"
NAMES = [{"name": "Keeper"}, {"name": "Nemo"}, {"name": "Coral"}]


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
            "event 0: the event names no seat",
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


def test_an_unfinished_game_refused_names_the_player_to_act_not_a_seat_number(signed_in):
    log = dealt(signed_in, "deep-vents", players=3)
    step = post(signed_in, STEP, log).json()

    text = post(signed_in, SAVE, log).json()["error"]["text"]

    assert f"({log['players'][step['seat']]['name']} to " in text
    assert "seat" not in text.lower()


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


def test_saves_beyond_the_upload_rate_are_refused_with_429(signed_in, monkeypatch):
    from games.permissions import UploadThrottle

    monkeypatch.setattr(UploadThrottle, "THROTTLE_RATES", {"uploads": "1/hour"})
    first = dealt(signed_in, "deep-dive")
    record_to_the_end(signed_in, first, seed=1)
    second = dealt(signed_in, "deep-dive")
    record_to_the_end(signed_in, second, seed=2)

    codes = [post(signed_in, SAVE, log).status_code for log in (first, second)]

    assert codes == [201, 429]
    assert GameLog.objects.count() == 1


# --- tournament tables: recorded from the seating (issue 6) ---------------------------


@pytest.fixture
def tournament(db) -> Tournament:
    return Tournament.objects.create(
        name="Club Night",
        slug="club-night",
        starts_on=datetime.date(2026, 6, 1),
        status=Tournament.Status.RUNNING,
    )


def seated_table(tournament: Tournament, number: int, handles: list[str], opener: int) -> Table:
    round_, _ = Round.objects.get_or_create(tournament=tournament, number=1)
    table = Table.objects.create(round=round_, number=number)
    for seat, handle in enumerate(handles):
        player, _ = Player.objects.get_or_create(
            handle=handle, defaults={"display_name": handle.title()}
        )
        TableSeat.objects.create(
            table=table, seat=seat, player=player, opening_bidder=seat == opener
        )
    return table


@pytest.fixture
def table(tournament) -> Table:
    return seated_table(tournament, 1, ["marina", "nemo", "coral"], opener=2)


@pytest.fixture
def staff(db) -> Any:
    return get_user_model().objects.create_user("organiser", is_staff=True)


def seat_user(table: Table, handle: str) -> Any:
    """A site account linked to the player seated at `table` under `handle`."""
    user = get_user_model().objects.create_user(f"user-{handle}")
    Player.objects.filter(handle=handle).update(user=user)
    return user


def offered(client: Client) -> list[dict[str, Any]]:
    response = client.get("/record/")
    assert response.status_code == 200
    return response.context["tables"]


def finished_table_log(table: Table) -> dict[str, Any]:
    """A whole game of the table as the page would post it (no claimed result)."""
    log = simulated_table_log(
        table, random.Random(3), datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC)
    )
    return {field: log[field] for field in ("game", "ruleset", "players", "setup", "events")}


def test_staff_are_offered_every_open_table_prefilled_from_the_seating_dv3(staff, table):
    tables = offered(signed_in_as(staff))

    assert tables == [
        {
            "id": table.pk,
            "label": f"{table}: Marina, Nemo, Coral",
            "game": "deep-vents",
            "ruleset": {"name": "starting-bid"},
            "players": [{"name": "Marina"}, {"name": "Nemo"}, {"name": "Coral"}],
            "setup": {"opening_bidder": 2},
        }
    ]
    page = signed_in_as(staff).get("/record/").content.decode()
    assert 'id="record-tables"' in page
    assert f'<option value="{table.pk}">' in page


def test_a_seated_player_is_offered_only_their_own_table(tournament, table):
    other = seated_table(tournament, 2, ["pearl", "squid"], opener=0)
    user = seat_user(other, "squid")

    assert [t["id"] for t in offered(signed_in_as(user))] == [other.pk]


def test_a_user_seated_at_no_open_table_is_offered_none(scorekeeper, table):
    assert offered(signed_in_as(scorekeeper)) == []


def test_tables_with_a_result_or_of_a_tournament_not_running_are_not_offered(
    staff, tournament, table
):
    by_hand = seated_table(tournament, 2, ["pearl", "squid"], opener=0)
    by_hand.seats.update(hand_rank=1)
    finished = Tournament.objects.create(
        name="Old Cup", slug="old-cup", starts_on=datetime.date(2025, 1, 1), status="finished"
    )
    seated_table(finished, 1, ["ray", "eel"], opener=0)
    with_log = seated_table(tournament, 3, ["krill", "kelp"], opener=1)
    upload = Upload.objects.create(source=Source.HUMAN)
    with_log.log = GameLog.objects.create(
        upload=upload, raw="{}", sha256="0" * 64, game_type="deep-vents"
    )
    with_log.save()

    assert [t["id"] for t in offered(signed_in_as(staff))] == [table.pk]


def test_a_display_name_that_is_not_the_handle_is_recorded_as_the_handle(staff, tournament):
    table = seated_table(tournament, 2, ["captain-nemo", "pearl"], opener=0)
    Player.objects.filter(handle="captain-nemo").update(display_name="Nemo")

    names = next(t["players"] for t in offered(signed_in_as(staff)) if t["id"] == table.pk)

    assert names == [{"name": "captain-nemo"}, {"name": "Pearl"}]


def test_a_table_saved_by_a_seated_player_is_verified_and_becomes_the_tables_result(
    table, django_capture_on_commit_callbacks
):
    client = signed_in_as(seat_user(table, "nemo"))
    log = finished_table_log(table)

    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, SAVE, {**log, "table": table.pk})

    assert response.status_code == 201, response.content
    table.refresh_from_db()
    assert table.log_id == response.json()["log"]
    assert table.log.status == GameLog.Status.VERIFIED
    assert table.game.source == Source.TOURNAMENT
    assert table.result_kind == "verified"


def test_saving_for_a_table_the_user_is_not_seated_at_is_refused_with_403(scorekeeper, table):
    response = post(
        signed_in_as(scorekeeper), SAVE, {**finished_table_log(table), "table": table.pk}
    )

    assert response.status_code == 403
    assert (
        "only staff, the organisers of Club Night or a player seated at"
        in (response.json()["error"]["text"])
    )
    assert not GameLog.objects.exists()


def test_saving_for_a_table_that_already_has_a_result_is_refused_with_409(staff, table):
    table.seats.update(hand_rank=1)

    response = post(signed_in_as(staff), SAVE, {**finished_table_log(table), "table": table.pk})

    assert response.status_code == 409
    assert "is not open for a result" in response.json()["error"]["text"]


@pytest.mark.parametrize(
    ("table_id", "status", "expected"),
    [
        ("1", 400, "a whole number"),
        (True, 400, "a whole number"),
        (99999, 404, "no table 99999"),
        (2**40, 404, f"no table {2**40}"),
    ],
)
def test_a_bad_table_id_is_refused_naming_it(staff, table, table_id, status, expected):
    response = post(signed_in_as(staff), SAVE, {**finished_table_log(table), "table": table_id})

    assert response.status_code == status
    assert expected in response.json()["error"]["text"]


def test_a_table_log_with_other_players_gets_the_seating_checks_message(staff, table):
    log = finished_table_log(table)
    log["players"][0] = {"name": "Stranger"}

    response = post(signed_in_as(staff), SAVE, {**log, "table": table.pk})

    assert response.status_code == 400
    assert "are not the players seated at" in response.json()["error"]["text"]
    assert not GameLog.objects.exists()


def test_a_table_log_with_another_opening_bidder_is_refused_dv3(staff, table):
    log = finished_table_log(table)
    log["players"] = [log["players"][i] for i in (2, 0, 1)]  # the drawn opener is now seat 0

    response = post(signed_in_as(staff), SAVE, {**log, "table": table.pk})

    assert response.status_code == 400
    assert "[DV-3]" in response.json()["error"]["text"]


def test_a_table_log_in_another_ruleset_is_refused(staff, tournament, table):
    log = finished_table_log(table)  # starting-bid, as the tournament was planned
    tournament.ruleset = "standard"
    tournament.save()

    response = post(signed_in_as(staff), SAVE, {**log, "table": table.pk})

    assert response.status_code == 400
    assert "plays the standard ruleset, not starting-bid" in response.json()["error"]["text"]


def test_a_table_log_naming_no_ruleset_plays_the_games_default_and_is_checked_too(
    staff, tournament, table
):
    log = finished_table_log(table)
    del log["ruleset"]  # Deep Vents' default ruleset is starting-bid
    tournament.ruleset = "standard"
    tournament.save()

    response = post(signed_in_as(staff), SAVE, {**log, "table": table.pk})

    assert response.status_code == 400
    assert "plays the standard ruleset, not starting-bid" in response.json()["error"]["text"]


# --- Deep Vents: payoffs out of turn (DV-8) ---------------------------------------------


def test_a_seat_that_is_not_deciding_is_offered_its_payoff_and_may_enter_it_dv_8(signed_in):
    game = get_game("deep-vents")
    bots = ["attacker"] * 3
    played = next(simulate(game, game.ruleset(), 3, 1, seed=1, strategies=bots))
    # The attackers' game of seed 1: seat 0 pays off out of turn as event 173, seat 1 deciding.
    assert played["events"][173] == {"type": "payoff", "seat": 0}
    log = {key: played[key] for key in ("game", "ruleset", "players", "setup")}
    log["events"] = played["events"][:173]

    answer = post(signed_in, STEP, log).json()

    assert answer["seat"] == 1
    payoffs = [c for c in answer["choices"] if c["event"]["type"] == "payoff"]
    assert payoffs == [
        {"event": {"type": "payoff", "seat": 0}, "label": "pay off a shortfall token"}
    ]
    log["events"].append(payoffs[0]["event"])
    after = post(signed_in, STEP, log)
    assert after.status_code == 200
    assert after.json()["seat"] == 1  # the decision it interrupted is still pending


# --- Deep Sea Adventure: stacking orders after a dive (DSA-5) -------------------------


def dive_end_with_stacking() -> tuple[dict[str, Any], dict[int, list]]:
    """A simulated game cut just after a dive ends with a diver drowned carrying two or more
    items, and the items each drowned diver carried (the engine's own record, DSA-5)."""
    game = get_game("deep-sea-adventure")
    for log in simulate(game, game.ruleset(None), 3, 10, seed="stack"):
        ends: list[tuple[int, dict[int, list]]] = []

        def dive_end(index: int, state: Any, ends: list = ends) -> None:
            carried = state.restack["items"] if state.restack else {}
            if any(len(items) > 1 for items in carried.values()):
                ends.append((index, dict(carried)))

        replay(log, on_event=dive_end)
        if ends:
            index, carried = ends[0]
            cut = {field: log[field] for field in ("game", "players", "setup")}
            return {**cut, "events": log["events"][: index + 1]}, carried
    raise AssertionError("no simulated dive ended with a diver drowning with two items")


def test_a_drowned_diver_carrying_several_items_is_offered_a_stacking_order_dsa5(signed_in):
    log, carried = dive_end_with_stacking()

    answer = post(signed_in, STEP, log).json()

    assert answer["stacking"] == [
        {"seat": seat, "items": [[{"level": c[0], "value": c[1]} for c in i] for i in items]}
        for seat, items in carried.items()
        if len(items) > 1
    ]


def test_a_stacking_order_given_is_recorded_and_no_longer_offered_dsa5(signed_in):
    log, _ = dive_end_with_stacking()
    first = post(signed_in, STEP, log).json()["stacking"][0]
    reversed_order = list(range(len(first["items"])))[::-1]
    log["events"].append({"type": "stack", "seat": first["seat"], "order": reversed_order})

    answer = post(signed_in, STEP, log).json()

    assert first["seat"] not in {d["seat"] for d in answer["stacking"]}
    stacks = [space for space in answer["snapshot"]["path"] if space["kind"] == "stack"]
    assert stacks, "the drowned chips lie in stacks at the end of the path"


def test_stacking_is_skipped_once_the_next_dive_begins_dsa5(signed_in):
    log, _ = dive_end_with_stacking()
    log["events"].append(post(signed_in, STEP, log).json()["choices"][0]["event"])

    answer = post(signed_in, STEP, log).json()

    assert answer["stacking"] == []


def test_a_stacking_order_that_repeats_an_item_is_refused_dsa5(signed_in):
    log, _ = dive_end_with_stacking()
    first = post(signed_in, STEP, log).json()["stacking"][0]
    log["events"].append(
        {"type": "stack", "seat": first["seat"], "order": [0] * len(first["items"])}
    )

    response = post(signed_in, STEP, log)

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["rule"], error["seat"]) == ("DSA-5", first["seat"])
    assert "must list each of the" in error["text"]


def test_no_stacking_is_offered_outside_a_dive_end(signed_in):
    answer = post(signed_in, STEP, dealt(signed_in, "deep-sea-adventure")).json()

    assert answer["stacking"] == []
