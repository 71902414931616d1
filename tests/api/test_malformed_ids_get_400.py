"""A game id that is not a string (`"game": []`, `"game": {}`), a table id that is not a
number (`abc`, `1.5`, a NUL byte) and a NUL in a URL each get a 4xx naming the problem, and
leave nothing stored (no empty Upload row). Before, each was a 500."""

import json

import pytest
from games_support import human_log, jsonl

from games.models import GameLog, Upload

pytestmark = pytest.mark.django_db


def log_with_game(game) -> str:
    log = human_log(seed=90)
    log["game"] = game
    return json.dumps(log)


@pytest.mark.parametrize("game", [[], {}, 7, None], ids=["list", "object", "number", "null"])
def test_a_single_log_whose_game_is_not_a_string_gets_400(staff_client, game):
    response = staff_client.post(
        "/api/logs/", data=log_with_game(game), content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "game"
    assert "the game is a string" in response.json()["detail"]
    assert not Upload.objects.exists()


@pytest.mark.parametrize("game", [[], {}], ids=["list", "object"])
def test_a_batch_whose_only_line_has_a_bad_game_keeps_the_line_error_and_no_log(
    staff_client, game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(
            "/api/uploads/", data=jsonl(log_with_game(game)), content_type="application/jsonl"
        )

    assert response.status_code == 202
    upload = Upload.objects.get()
    assert upload.line_errors[0]["line"] == 1
    assert "the game is a string" in upload.line_errors[0]["error"]
    assert not GameLog.objects.exists()


@pytest.mark.parametrize("game", [[], {}], ids=["list", "object"])
def test_the_upload_page_refuses_a_pasted_log_whose_game_is_not_a_string(staff_client, game):
    response = staff_client.post("/upload/", {"log": log_with_game(game)})

    assert response.status_code == 400
    assert b"the game is a string" in response.content
    assert not Upload.objects.exists()


@pytest.mark.parametrize("table", ["abc", "1.5", "\x00", "99999999999999999999999"])
def test_the_upload_page_refuses_a_table_that_is_not_an_id(staff_client, table):
    response = staff_client.post(
        "/upload/", {"log": json.dumps(human_log(seed=91)), "table": table}
    )

    assert response.status_code == 400
    assert b"table" in response.content
    assert not Upload.objects.exists()


@pytest.mark.parametrize("table", ["abc", "1.5", "\x00"])
def test_the_api_refuses_a_table_that_is_not_an_id(staff_client, table):
    response = staff_client.post(
        "/api/logs/?" + f"table={table}".replace("\x00", "%00"),
        data=json.dumps(human_log(seed=92)),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert "table" in json.dumps(response.json())
    assert not Upload.objects.exists()


@pytest.mark.parametrize("path", ["/players/%00/", "/games/?player=%00", "/api/games/?player=%00"])
def test_a_nul_byte_in_the_url_gets_400_naming_it(staff_client, path):
    response = staff_client.get(path)

    assert response.status_code == 400
    assert b"NUL" in response.content
