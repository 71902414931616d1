"""Who may do what with recordings kept on the server (games.RecordingDraft): only their
recorder reads, replaces or discards them; anyone else is answered as if there were none,
and an anonymous visitor gets a JSON 403. Every refusal changes nothing."""

from __future__ import annotations

import pytest
from recording_support import DRAFTS, draft_of, post
from tables_support import club

from games.models import RecordingDraft

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept_by_marina():
    the_club = club()
    log = the_club.table_log()
    response = post(the_club.client("seated player"), DRAFTS, draft_of(log, the_club.table))
    assert response.status_code == 200
    return the_club, log


@pytest.mark.parametrize("role", ["anonymous", "other player", "organiser", "staff"])
def test_only_the_recorder_reads_their_recording(kept_by_marina, role):
    the_club, _ = kept_by_marina
    response = the_club.client(role).get(DRAFTS + "kept-1/")

    assert response.status_code == (403 if role == "anonymous" else 404)
    assert response.json()["error"]["text"]


@pytest.mark.parametrize("role", ["anonymous", "other player", "organiser", "staff"])
def test_only_the_recorder_discards_their_recording(kept_by_marina, role):
    the_club, _ = kept_by_marina
    response = post(the_club.client(role), DRAFTS + "kept-1/discard/", {})

    if role == "anonymous":
        assert response.status_code == 403
    else:
        assert response.json() == {"discarded": 0}
    assert RecordingDraft.objects.filter(key="kept-1").count() == 1


@pytest.mark.parametrize("role", ["other player", "organiser", "staff"])
def test_the_same_key_from_someone_else_is_their_own_recording_not_marinas(kept_by_marina, role):
    the_club, log = kept_by_marina
    body = draft_of(log, the_club.table)
    post(the_club.client(role), DRAFTS, {**body, "steps": body["steps"][:3]})

    marinas = RecordingDraft.objects.get(key="kept-1", recorder=the_club.users["seated player"])
    theirs = RecordingDraft.objects.get(key="kept-1", recorder=the_club.users[role])

    assert (marinas.step_count, theirs.step_count) == (len(log["events"]), 3)


def test_an_anonymous_visitor_keeps_nothing(kept_by_marina):
    the_club, log = kept_by_marina
    response = post(the_club.client("anonymous"), DRAFTS, draft_of(log, the_club.table, "anon"))

    assert response.status_code == 403
    assert not RecordingDraft.objects.filter(key="anon").exists()


def test_the_record_page_lists_only_ones_own_recordings(kept_by_marina):
    the_club, _ = kept_by_marina

    assert the_club.client("seated player").get("/record/").context["drafts"][0]["key"] == "kept-1"
    assert the_club.client("other player").get("/record/").context["drafts"] == []
