"""A batch sent over HTTP is only stored by the request (202 at once, with the upload's URL);
a Celery task reads it, saving its position, bad lines and duplicates as it goes, so no
batch is bound by the web server's timeout and a task run again after a crash stores no
log twice. A body cut short leaves nothing behind."""

import io

import pytest
from batch_support import stored_bodies
from django.core.files.uploadedfile import SimpleUploadedFile
from games_support import human_log, jsonl

from games.models import BatchState, GameLog, Upload
from games.services import batch_intake, intake
from games.services.batch_intake import BodyEndedEarly, read_batch, store_body

pytestmark = pytest.mark.django_db


def test_the_request_stores_the_body_and_answers_202_before_anything_is_read(
    staff_client, django_capture_on_commit_callbacks
):
    batch = jsonl(human_log(seed=1), "{oops", human_log(seed=2))

    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")

    assert response.status_code == 202
    upload = Upload.objects.get()
    assert response["Location"] == f"http://testserver/api/uploads/{upload.pk}/"
    assert response.json()["batch_state"] == "waiting"
    assert (upload.batch_state, upload.bytes_total, upload.bytes_read) == ("waiting", len(batch), 0)
    assert stored_bodies() == [batch]
    assert not GameLog.objects.exists()
    assert len(queued) == 1  # the reading task, sent once the upload is committed
    page = staff_client.get(upload.get_absolute_url())
    assert b"Waiting for a worker to read the batch" in page.content


def test_the_task_reads_the_batch_saves_its_position_and_deletes_the_body(
    staff_client, django_capture_on_commit_callbacks
):
    batch = jsonl(human_log(seed=3), "{oops", human_log(seed=3), human_log(seed=4))

    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")

    upload = Upload.objects.get(pk=response.json()["id"])
    assert upload.batch_state == BatchState.READ
    assert (upload.bytes_read, upload.lines_read) == (len(batch), 4)
    assert upload.line_errors[0]["line"] == 2
    assert upload.duplicates == [{"line": 3, "same_as_line": 1}]
    assert sorted(upload.logs.values_list("line", "status")) == [(1, "verified"), (4, "verified")]
    assert stored_bodies() == []


def test_the_upload_page_stores_a_batch_file_and_redirects_to_its_page(
    staff_client, django_capture_on_commit_callbacks
):
    batch = jsonl(human_log(seed=5), human_log(seed=6))

    with django_capture_on_commit_callbacks(execute=False):
        response = staff_client.post("/upload/", {"file": SimpleUploadedFile("two.jsonl", batch)})

    upload = Upload.objects.get()
    assert response.status_code == 302
    assert response["Location"] == upload.get_absolute_url()
    assert upload.batch_state == BatchState.WAITING
    assert stored_bodies() == [batch]


def test_a_task_run_again_after_a_crash_resumes_and_stores_no_log_twice(
    staff_client, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(intake, "BATCH_CHUNK", 2)
    seeds = [10, 11, 12, 10, 13, 14]  # line 4 repeats line 1
    batch = jsonl(*(human_log(seed=seed) for seed in seeds))
    with django_capture_on_commit_callbacks(execute=False):
        staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")
    upload = Upload.objects.get()
    real_store_chunk = batch_intake.store_chunk
    groups = []

    def store_then_die_on_the_second_group(upload, chunk, dispatch):
        groups.append(chunk)
        if len(groups) == 2:
            raise SystemExit("worker killed")
        real_store_chunk(upload, chunk, dispatch)

    monkeypatch.setattr(batch_intake, "BATCH_CHUNK", 2)
    monkeypatch.setattr(batch_intake, "store_chunk", store_then_die_on_the_second_group)
    with pytest.raises(SystemExit):
        read_batch(upload.pk)
    upload.refresh_from_db()
    assert upload.lines_read == 2 and upload.logs.count() == 2
    monkeypatch.setattr(batch_intake, "store_chunk", real_store_chunk)

    read_batch(upload.pk)

    upload.refresh_from_db()
    assert upload.batch_state == BatchState.READ
    assert sorted(upload.logs.values_list("line", flat=True)) == [1, 2, 3, 5, 6]
    assert GameLog.objects.count() == 5
    assert upload.duplicates == [{"line": 4, "same_as_line": 1}]
    assert stored_bodies() == []


def test_a_second_run_of_a_finished_batch_changes_nothing(
    staff_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(
            "/api/uploads/", data=jsonl(human_log(seed=20)), content_type="application/jsonl"
        )
    upload = Upload.objects.get()

    read_batch(upload.pk)

    assert GameLog.objects.count() == 1
    assert Upload.objects.get().duplicates == []


def test_a_body_that_ends_before_its_length_leaves_nothing_stored():
    with pytest.raises(BodyEndedEarly, match="ended after 10 of 1000 bytes"):
        store_body(io.BytesIO(b'{"a": 1}\n\n'), expected=1000)

    assert stored_bodies() == []


def test_a_batch_over_the_size_limit_gets_413_and_leaves_nothing_stored(staff_client, settings):
    settings.GAMES_MAX_UPLOAD_BYTES = 100
    response = staff_client.post(
        "/api/uploads/",
        {"file": SimpleUploadedFile("big.jsonl", b"x" * 101)},
    )

    assert response.status_code == 413
    assert stored_bodies() == []
    assert not Upload.objects.exists()


def test_thousands_of_bad_lines_are_all_counted_and_the_first_thousand_listed(
    staff_client, monkeypatch, django_capture_on_commit_callbacks
):
    from games.permissions import UploadThrottle

    monkeypatch.setattr(UploadThrottle, "THROTTLE_RATES", {"uploads": "100000/hour"})
    batch = b"x\n" * 20_000

    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")

    upload = Upload.objects.get()
    assert upload.line_error_count == 20_000
    assert len(upload.line_errors) == intake.MAX_LISTED_LINE_ERRORS
    assert upload.line_errors[-1]["line"] == intake.MAX_LISTED_LINE_ERRORS
    page = staff_client.get(upload.get_absolute_url())
    assert b"20000 bad lines" in page.content


def test_the_status_partial_shows_reading_progress_and_keeps_polling(staff_client):
    upload = Upload.objects.create(
        submitted_by=None,
        batch_state=BatchState.READING,
        bytes_total=2_000_000,
        bytes_read=1_000_000,
        lines_read=175,
    )

    partial = staff_client.get(f"/uploads/{upload.pk}/status/", headers={"HX-Request": "true"})

    assert b"Reading the batch" in partial.content
    assert b"175 lines" in partial.content
    assert b'<progress id="reading" max="2000000" value="1000000">' in partial.content
    assert b'hx-trigger="every 1s"' in partial.content


def test_a_batch_longer_than_a_task_may_run_is_handed_on_to_a_fresh_task(
    staff_client, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(batch_intake, "SAVE_EVERY_LINES", 2)
    monkeypatch.setattr(batch_intake, "read_seconds_per_task", lambda: -1.0)
    sent = []
    monkeypatch.setattr(batch_intake.Dispatch, "send", lambda self, task, *args: sent.append(args))
    with django_capture_on_commit_callbacks(execute=False):
        staff_client.post(
            "/api/uploads/",
            data=jsonl(*(human_log(seed=seed) for seed in (30, 31, 32, 33, 34))),
            content_type="application/jsonl",
        )
    upload = Upload.objects.get()

    read_batch(upload.pk)

    upload.refresh_from_db()
    assert (upload.batch_state, upload.lines_read) == (BatchState.READING, 2)
    assert sent[-1] == (upload.pk,)  # the next task, from line 3
    for _ in range(5):  # two lines a task: three more tasks finish it
        read_batch(upload.pk)
    upload.refresh_from_db()
    assert upload.batch_state == BatchState.READ
    assert sorted(upload.logs.values_list("line", flat=True)) == [1, 2, 3, 4, 5]
