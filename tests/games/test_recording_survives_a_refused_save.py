"""Nothing recorded is lost (issue 22): the Record page keeps each recording on the server
for its recorder (games.RecordingDraft) after every step; a refused save - a closed table,
the wrong opener, a game not over, a database outage - keeps it, with the reason and the
event it names; only a stored game or its recorder's discarding removes it."""

from __future__ import annotations

import json
import re

import pytest
from recording_support import (
    DRAFTS,
    SAVE,
    database_down,
    draft_of,
    played_to_the_end,
    post,
    table_save,
)
from tables_support import club

from games.models import RecordingDraft
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def the_club():
    return club()  # Marina's account is seated at the open table; Coral opens (DV-3)


def kept(the_club, log, role="seated player", key="kept-1"):
    response = post(the_club.client(role), DRAFTS, draft_of(log, the_club.table, key))
    assert response.status_code == 200, response.content
    return RecordingDraft.objects.get(key=key)


def set_status(tournament, status):
    Tournament.objects.filter(pk=tournament.pk).update(status=status)


def test_a_save_refused_for_a_closed_table_keeps_the_recording_with_the_reason(the_club):
    log = the_club.table_log()
    draft = kept(the_club, log)
    set_status(the_club.tournament, Tournament.Status.FINISHED)

    refused = post(the_club.client("seated player"), SAVE, table_save(log, the_club.table))
    draft.refresh_from_db()
    page = the_club.client("seated player").get("/record/")
    listed = page.context["drafts"]

    assert refused.status_code == 409
    assert (
        draft.step_count == len(log["events"])
        and draft.steps == draft_of(log, the_club.table)["steps"]
    )
    assert draft.refusal["text"] == refused.json()["error"]["text"]
    assert "is not open for a result" in draft.refusal["text"]
    assert [(d["key"], d["step_count"], d["table"]) for d in listed] == [
        ("kept-1", len(log["events"]), the_club.table.pk)
    ]
    assert listed[0]["refusal"]["text"] == draft.refusal["text"]


def test_once_the_cause_is_gone_the_kept_recording_saves_and_only_then_goes(the_club):
    log = the_club.table_log()
    kept(the_club, log)
    set_status(the_club.tournament, Tournament.Status.FINISHED)
    post(the_club.client("seated player"), SAVE, table_save(log, the_club.table))
    set_status(the_club.tournament, Tournament.Status.RUNNING)

    saved = post(the_club.client("seated player"), SAVE, table_save(log, the_club.table))

    assert saved.status_code == 201, saved.content
    assert Table.objects.get(pk=the_club.table.pk).log_id == saved.json()["log"]
    assert not RecordingDraft.objects.exists()


def test_a_save_refused_for_the_wrong_opener_keeps_the_recording_and_says_dv_3(the_club):
    log = the_club.table_log()
    log["setup"]["opening_bidder"] = 0  # Marina, in her own seat; the seating drew Coral
    log["events"] = [step["event"] for step in played_to_the_end(log, [])]
    draft = kept(the_club, log)

    refused = post(the_club.client("seated player"), SAVE, table_save(log, the_club.table))
    draft.refresh_from_db()

    assert refused.status_code == 400
    assert draft.refusal["text"] == (
        f"the table's seating has coral opening the bidding, not marina at {the_club.table} [DV-3]"
    )
    assert draft.step_count == len(log["events"])


def test_a_save_of_a_game_not_over_keeps_the_recording_and_the_event_it_names(the_club):
    log = the_club.table_log()
    log["events"] = log["events"][:40]
    draft = kept(the_club, log)

    refused = post(the_club.client("seated player"), SAVE, table_save(log, the_club.table))
    draft.refresh_from_db()

    assert refused.status_code == 400
    assert draft.refusal["index"] == 40  # the event still to record
    assert "not over yet" in draft.refusal["text"]


def test_a_refused_save_says_who_and_when_in_the_games_words_not_event_and_seat_numbers(the_club):
    log = the_club.table_log()
    log["events"] = log["events"][:40]
    kept(the_club, log)

    refused = post(the_club.client("seated player"), SAVE, table_save(log, the_club.table))
    words = refused.json()["error"]["words"]

    assert refused.status_code == 400
    assert words == RecordingDraft.objects.get().refusal["words"]
    assert words.startswith("Turn ") and "not over yet" in words, words
    assert not re.search(r"\b(event|seat) \d", words), words
    assert any(player["name"] in words for player in log["players"]), words


def test_a_save_during_a_database_outage_loses_nothing_and_saves_afterwards(the_club):
    log = the_club.table_log()
    draft = kept(the_club, log)
    before = (draft.steps, draft.step_count, draft.base)

    marina = the_club.client("seated player")
    with database_down():
        refused = marina.post(
            SAVE,
            json.dumps(table_save(log, the_club.table)),
            content_type="application/json",
            headers={"Accept": "application/json"},
        )
    draft.refresh_from_db()
    kept_through = (draft.steps, draft.step_count, draft.base)
    saved = post(the_club.client("seated player"), SAVE, table_save(log, the_club.table))

    assert refused.status_code == 503
    assert "database is unreachable" in refused.json()["detail"]
    assert kept_through == before
    assert saved.status_code == 201
    assert not RecordingDraft.objects.exists()


def test_a_recording_sent_again_replaces_its_steps_and_another_key_is_another_recording(
    the_club,
):
    log = the_club.table_log()
    client = the_club.client("seated player")
    first = draft_of(log, the_club.table, "first")
    post(client, DRAFTS, {**first, "steps": first["steps"][:10]})
    post(client, DRAFTS, {**first, "steps": first["steps"][:12]})
    post(client, DRAFTS, draft_of(log, the_club.table, "second"))

    counts = dict(RecordingDraft.objects.values_list("key", "step_count"))

    assert counts == {"first": 12, "second": len(log["events"])}


def test_an_older_copy_of_a_recording_never_overwrites_a_newer_one(the_club):
    # A tab left behind, or a slow phone's earlier send, arriving after a newer copy.
    log = the_club.table_log()
    client = the_club.client("seated player")
    recording = draft_of(log, the_club.table, "first")
    post(client, DRAFTS, {**recording, "steps": recording["steps"][:12], "revision": 7})

    stale = post(client, DRAFTS, {**recording, "steps": recording["steps"][:10], "revision": 6})
    again = post(client, DRAFTS, {**recording, "steps": recording["steps"][:11], "revision": 7})
    draft = RecordingDraft.objects.get()

    assert stale.status_code == 409
    assert stale.json()["error"]["field"] == "revision"
    assert "kept further elsewhere (revision 7, this is 6)" in stale.json()["error"]["text"]
    assert again.status_code == 200  # the same revision sent again (a retried request)
    assert (draft.step_count, draft.revision) == (11, 7)


def test_a_recorder_resumes_their_recording_whole_from_the_server(the_club):
    log = the_club.table_log()
    kept(the_club, log)

    response = the_club.client("seated player").get(DRAFTS + "kept-1/")

    assert response.status_code == 200
    assert response.json()["base"] == draft_of(log, the_club.table)["base"]
    assert [s["event"] for s in response.json()["steps"]] == log["events"]


def test_a_recorder_discards_their_recording(the_club):
    kept(the_club, the_club.table_log())

    response = post(the_club.client("seated player"), DRAFTS + "kept-1/discard/", {})

    assert response.json() == {"discarded": 1}
    assert not RecordingDraft.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"key": "no spaces please"}, "key"),
        ({"key": "x" * 41}, "key"),
        ({"base": {"game": "chess", "players": [], "setup": {}}}, "base.game"),
        ({"base": {"game": "deep-dive", "players": ["Marina"], "setup": {}}}, "base.players"),
        ({"base": {"game": "deep-dive", "players": [], "setup": {}, "table": "1"}}, "base.table"),
        ({"steps": {"0": {}}}, "steps"),
        ({"steps": [{"event": {"type": "dive"}}]}, "steps.0"),
        ({"refusal": "no"}, "refusal"),
        ({"revision": -1}, "revision"),
        ({"revision": "3"}, "revision"),
    ],
)
def test_a_draft_that_is_not_one_is_refused_naming_the_field_and_nothing_is_kept(
    the_club, change, field
):
    body = {**draft_of(the_club.table_log(), the_club.table), **change}
    response = post(the_club.client("seated player"), DRAFTS, body)

    assert response.status_code == 400
    assert response.json()["error"]["field"] == field
    assert not RecordingDraft.objects.exists()
