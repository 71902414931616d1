"""A NUL (\\u0000) or a lone surrogate in any string of a log is refused at intake with a 400
naming the field: PostgreSQL cannot store them and UTF-8 cannot encode them, so before this
such a log was stored (201) and then crashed its verification."""

import json

import pytest
from games_support import human_log, jsonl

from engines.core.errors import MalformedLogError
from engines.core.log import loads
from games.models import GameLog, Upload

pytestmark = pytest.mark.django_db

NUL = "\u0000"
LONE_SURROGATE = "\ud800"


def log_with(where: str, bad: str) -> dict:
    log = human_log(seed=70)
    if where == "player name":
        log["players"][1]["name"] = f"Ne{bad}mo"
    elif where == "strategy label":
        log["players"][0]["strategy"] = f"greedy{bad}"
    else:
        log["events"][12]["hex"] = bad
    return log


FIELDS = {
    "player name": "players[1].name",
    "strategy label": "players[0].strategy",
    "event field": 'event 12 field "hex"',
}


@pytest.mark.parametrize("bad", [NUL, LONE_SURROGATE], ids=["NUL", "lone surrogate"])
@pytest.mark.parametrize("where", list(FIELDS))
def test_a_single_log_with_an_unstorable_string_gets_400_naming_the_field(staff_client, where, bad):
    # json.dumps escapes both as \\u0000 / \\ud800, as a hostile staff_client would send them.
    body = json.dumps(log_with(where, bad))

    response = staff_client.post("/api/logs/", data=body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"]["field"] == FIELDS[where]
    assert response.json()["detail"].startswith(FIELDS[where] + ": string contains")
    assert not GameLog.objects.exists()
    assert not Upload.objects.exists()


def test_a_batch_line_with_an_unstorable_string_is_a_line_error_and_the_rest_is_stored(
    staff_client, django_capture_on_commit_callbacks
):
    batch = jsonl(human_log(seed=71), log_with("player name", NUL), human_log(seed=72))

    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")

    assert response.status_code == 202
    upload = Upload.objects.get()
    assert [bad["line"] for bad in upload.line_errors] == [2]
    assert "players[1].name" in upload.line_errors[0]["error"]
    assert sorted(upload.logs.values_list("line", flat=True)) == [1, 3]


def test_the_upload_page_refuses_a_pasted_log_with_a_nul_naming_the_field(staff_client):
    pasted = json.dumps(log_with("player name", NUL))

    response = staff_client.post("/upload/", {"log": pasted})

    assert response.status_code == 400
    assert b"players[1].name: string contains a NUL" in response.content
    assert not Upload.objects.exists()


def test_the_engine_names_a_nul_in_a_key_and_accepts_a_surrogate_pair():
    with pytest.raises(MalformedLogError, match="a key contains a NUL"):
        loads('{"players": [{"na\\u0000me": "x"}]}')
    assert loads('{"name": "\\ud83d\\udc19"}') == {"name": "\U0001f419"}


def test_the_engine_walks_nesting_deeper_than_the_recursion_limit():
    depth = 5000
    with pytest.raises(MalformedLogError, match="NUL"):
        loads("[" * depth + '"\\u0000"' + "]" * depth)
