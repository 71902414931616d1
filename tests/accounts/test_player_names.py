"""Names that cannot impersonate: player names are matched on their canonical form (NFKC,
case-folded, trimmed) and names that could pass for another player's are refused at every
intake (API single log, API batch line, upload page, record page) with a 400 naming the
seat and the problem; the name as written is kept for display, the handle stays a slug."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from games_support import human_log, jsonl, submit, text

from games.models import GameLog, GameSeat, Upload
from games.services.reverification import reverify_log
from players.models import Player
from players.names import canonical_name, name_problem
from players.services import create_missing_players, free_handles, players_for

pytestmark = pytest.mark.django_db
__all__ = ["submit"]

# (name in the log, what is wrong with it), each refused at intake.
REFUSED = [
    ("admin\u200b", 'player name "admin\\u200b" contains a zero-width character (U+200B)'),
    ("ad\u200dmin", "contains a zero-width character (U+200D)"),
    ("\ufeffadmin", "contains a zero-width character (U+FEFF)"),
    ("admin\u2060", "contains a zero-width character (U+2060)"),
    ("admin\u200f", "contains a bidirectional control character (U+200F)"),
    ("admin\u200e", "contains a bidirectional control character (U+200E)"),
    ("\u202enimda", "contains a bidirectional control character (U+202E)"),
    ("\u2067admin\u2069", "contains a bidirectional control character (U+2067)"),
    ("admin\u061c", "contains a bidirectional control character (U+061C)"),
    ("admin\x00", "contains a NUL character (U+0000)"),
    ("ad\tmin", "contains a control character (U+0009)"),
    ("admin\x7f", "contains a control character (U+007F)"),
    ("admin\ud800", "contains a lone surrogate (U+D800)"),
    ("admin\u00ad", "contains an invisible formatting character (U+00AD)"),
    ("\u3164", "contains an invisible filler character (U+3164)"),
    ("   ", 'player name "   " has nothing visible'),
    ("", 'player name "" has nothing visible'),
    ("\u0301\u0301", "has nothing visible"),
    ("\u2800", "has nothing visible"),
]
# Spellings that are the player `admin`, as intended.
SAME_AS_ADMIN = ["admin", "Admin", " admin ", "ADMIN", "\uff41\uff44\uff4d\uff49\uff4e"]

THE_OTHERS = ("Nemo", "Coral")


def log_with(name: str, seed: int = 1) -> str:
    """A log whose seat 2 is `name`, escaped so even a lone surrogate survives as JSON."""
    return json.dumps(human_log(seed=seed, names=(*THE_OTHERS, name)))


@pytest.mark.parametrize(("name", "problem"), REFUSED)
def test_a_name_that_could_pass_for_another_is_refused_naming_the_problem(name, problem):
    assert problem in name_problem(name)


@pytest.mark.parametrize("name", SAME_AS_ADMIN)
def test_spellings_of_admin_by_case_width_and_spaces_are_one_canonical_name(name):
    assert canonical_name(name) == "admin"


@pytest.mark.parametrize("name", ["Marina Abyss", "Zoë", "海", "Ann-Angler", "O'Neil", "ß"])
def test_ordinary_names_are_accepted(name):
    assert name_problem(name) is None


def test_inner_runs_of_spaces_are_one_space_and_nfkc_undoes_composed_ligatures():
    assert canonical_name("Ann   Angler") == canonical_name("ann angler")
    assert canonical_name("\ufb01sh") == "fish"  # the ligature fi
    assert canonical_name("Stra\u00dfe") == canonical_name("STRASSE")


@pytest.mark.parametrize(("name", "problem"), REFUSED)
def test_the_api_refuses_a_single_log_with_the_name_naming_the_seat(staff_client, name, problem):
    response = staff_client.post("/api/logs/", data=log_with(name), content_type="application/json")

    assert response.status_code == 400
    detail = response.json()["detail"]
    # NUL and lone surrogates are refused by the log's own check of every string
    # (engines.core.log), before names are looked at: it names the seat's field.
    assert detail.startswith(("seat 3: player name ", "players[2].name: string "))
    assert problem in detail
    assert response.json()["error"]["field"] == "players[2].name"
    assert not GameLog.objects.exists()


def test_the_api_batch_reports_the_bad_line_and_keeps_the_others(
    staff_client, django_capture_on_commit_callbacks
):
    batch = jsonl(
        human_log(seed=2, names=("Marina", "Nemo")),
        log_with("admin\u200b", seed=3),
        human_log(seed=4, names=("Coral", "Kelp")),
    )

    with django_capture_on_commit_callbacks(execute=True):  # a worker reads the batch
        response = staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")

    assert response.status_code == 202
    assert Upload.objects.get(pk=response.json()["id"]).line_errors == [
        {
            "line": 2,
            "error": 'seat 3: player name "admin\\u200b" contains a zero-width character (U+200B)',
        }
    ]
    assert sorted(GameLog.objects.values_list("line", flat=True)) == [1, 3]


def test_the_upload_page_refuses_the_name_and_shows_why(staff_client):
    response = staff_client.post("/upload/", {"log": log_with("admin\u202e")})

    assert response.status_code == 400
    assert "seat 3: player name" in response.content.decode()
    assert "bidirectional control character (U+202E)" in response.content.decode()
    assert not GameLog.objects.exists()


def test_the_record_page_refuses_to_save_a_game_with_the_name(staff_client):
    log = json.loads(log_with("admin\u200e"))
    recording = {key: log[key] for key in ("game", "ruleset", "players", "setup", "events")}

    response = staff_client.post(
        "/record/save/", data=json.dumps(recording), content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["text"] == (
        'seat 3: player name "admin\\u200e" contains a bidirectional control character (U+200E)'
    )
    assert not GameLog.objects.exists()


def test_two_seats_that_are_one_player_are_refused(staff_client):
    response = staff_client.post(
        "/api/logs/",
        data=text(human_log(names=("admin", "Nemo", "\uff21\uff44\uff4d\uff49\uff4e"))),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json()["detail"].startswith("seat 3: ")
    assert "same player as seat 1" in response.json()["detail"]


@pytest.mark.parametrize("name", SAME_AS_ADMIN)
def test_every_spelling_of_admin_is_seated_as_the_one_player_admin(
    staff_client, django_capture_on_commit_callbacks, name
):
    admin = Player.objects.create(handle="admin", display_name="admin")

    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(
            "/api/logs/", data=log_with(name), content_type="application/json"
        )

    assert response.status_code == 201, response.content
    seat = GameSeat.objects.get(seat=2)
    assert seat.player == admin
    assert seat.name == name  # as written, for display
    assert Player.objects.filter(canonical_name="admin").count() == 1


def test_a_new_name_keeps_its_spelling_for_display_and_gets_a_slug_handle():
    player = players_for(["  Zoë Ünderwood "])["  Zoë Ünderwood "]

    assert player.display_name == "Zoë Ünderwood"
    assert player.handle == "zoe-underwood"
    assert player.canonical_name == "zoë ünderwood"


def test_a_name_whose_slug_is_taken_by_someone_else_gets_the_next_free_handle():
    admin = Player.objects.create(handle="admin", display_name="admin")

    lookalike = players_for(["Admin!"])["Admin!"]

    assert lookalike != admin
    assert lookalike.handle == "admin-2"
    assert lookalike.display_name == "Admin!"


def test_new_names_sharing_a_slug_get_the_free_handles_in_turn():
    Player.objects.create(handle="kelp-2", display_name="someone")

    handles = free_handles({"kelp!": "Kelp!", "kelp?": "Kelp?", "reef": "Reef"})

    assert handles == {"kelp!": "kelp", "kelp?": "kelp-3", "reef": "reef"}


def test_a_slug_taken_by_an_earlier_new_name_with_its_suffix_is_itself_suffixed_past_players():
    Player.objects.create(handle="anna", display_name="Anna")
    Player.objects.create(handle="anna-2-2", display_name="someone")

    handles = free_handles({"anna!": "Anna!", "anna 2": "Anna 2"})

    assert handles == {"anna!": "anna-2", "anna 2": "anna-2-3"}


def test_one_name_in_a_batch_of_spellings_is_created_once():
    found = players_for(["Kelp", "KELP", " kelp"])

    assert len({player.pk for player in found.values()}) == 1
    assert Player.objects.get().display_name == "Kelp"


@pytest.mark.django_db(transaction=True)
def test_two_workers_creating_the_same_new_names_in_opposite_orders_never_deadlock(postgresql):
    # Each inserts its names in one statement: were the rows written in the order given,
    # each would hold a name the other waits for (the CI failure of 2026-12-01).
    for round_ in range(3):
        names = [f"Diver {round_}-{number:03}" for number in range(300)]

        errors = created_at_once([names, names[::-1]])

        assert errors == []
        assert Player.objects.filter(display_name__in=names).count() == len(names)


def created_at_once(orders: list[list[str]]) -> list[Exception]:
    """create_missing_players run for each list of names in a thread of its own, all
    starting together; returns what they raised."""
    start, errors = threading.Barrier(len(orders)), []

    def create(names: list[str]) -> None:
        try:
            start.wait(timeout=30)
            create_missing_players(names)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()  # this thread's own

    threads = [threading.Thread(target=create, args=(names,)) for names in orders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_a_stored_log_reverified_keeps_finding_its_players(submit):
    stored = submit(text(human_log(seed=9, names=("Marina", "NEMO", "Coral"))))
    players = set(GameSeat.objects.values_list("player", flat=True))

    reverify_log(stored.pk)

    assert set(GameSeat.objects.values_list("player", flat=True)) == players
    assert Player.objects.count() == 3


def test_the_admin_refuses_a_player_whose_name_is_another_players_or_could_pass_for_one(
    admin_client,
):
    Player.objects.create(handle="admin", display_name="admin")

    twin = admin_client.post(
        "/admin/players/player/add/", {"handle": "admin-2", "display_name": "ADMIN"}
    )
    hidden = admin_client.post(
        "/admin/players/player/add/", {"handle": "admin-3", "display_name": "admin\u200b"}
    )

    assert "admin (@admin) already has this name" in twin.content.decode()
    assert "contains a zero-width character (U+200B)" in hidden.content.decode()
    assert Player.objects.count() == 1


def test_a_long_name_whose_handle_is_taken_gets_a_suffixed_handle_within_the_limit():
    long_name = "Abyssopelagic" * 4
    first = players_for([long_name])[long_name]

    second = players_for([long_name + "!"])[long_name + "!"]

    assert len(first.handle) == 40
    assert second.handle == first.handle[:38] + "-2"
    assert second != first


def test_a_name_too_long_for_a_player_is_refused_at_intake_but_an_old_one_still_finds_a_player():
    long_name = "Marina " * 20

    assert "is longer than 100 characters" in name_problem(long_name)
    player = players_for([long_name])[long_name]  # a log stored before the rule
    assert len(player.display_name) <= 100
    assert players_for([long_name])[long_name] == player
