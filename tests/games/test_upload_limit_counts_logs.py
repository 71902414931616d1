"""The hourly upload limit (UPLOADS_PER_HOUR) counts logs, not requests: a batch counts by its
lines, so one request cannot carry past the limit. A refusal is a 429 with Retry-After, on
the API and on the upload page, and stores nothing (no Upload row, no stored body); a batch
larger than the hourly limit itself is a 413 (waiting cannot help), said while it streams."""

import pytest
from batch_support import stored_bodies
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from games_support import human_log, jsonl, text

from games.models import Upload
from games.permissions import UploadThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def five_logs_an_hour(monkeypatch):
    monkeypatch.setattr(UploadThrottle, "THROTTLE_RATES", {"uploads": "5/hour"})
    cache.clear()
    yield
    cache.clear()


def post_batch(staff_client: Client, *seeds: int):
    batch = jsonl(*(human_log(seed=seed) for seed in seeds))
    return staff_client.post("/api/uploads/", data=batch, content_type="application/jsonl")


def test_a_batch_of_three_then_one_of_three_is_refused_with_retry_after(staff_client, settings):
    first = post_batch(staff_client, 1, 2, 3)
    second = post_batch(staff_client, 4, 5, 6)

    assert first.status_code == 202
    assert second.status_code == 429
    assert 0 < int(second["Retry-After"]) <= 3600
    assert Upload.objects.count() == 1
    assert len(stored_bodies()) == 1  # the first batch's, unread


def test_single_logs_fill_what_a_batch_left(staff_client):
    assert post_batch(staff_client, 1, 2, 3, 4).status_code == 202

    single = [
        staff_client.post(
            "/api/logs/", data=text(human_log(seed=s)), content_type="application/json"
        )
        for s in (7, 8)
    ]

    assert [response.status_code for response in single] == [201, 429]
    assert "Retry-After" in single[1]


def test_a_batch_larger_than_the_hourly_limit_is_refused_as_too_large_saying_to_split_it(
    staff_client,
):
    response = post_batch(staff_client, *range(10, 16))

    # Waiting cannot help, so not 429: 413, said as the sixth line arrives.
    assert response.status_code == 413
    assert "at most 5 logs" in response.json()["detail"]
    assert "split the batch" in response.json()["detail"]
    assert "Retry-After" not in response
    assert stored_bodies() == []


def test_the_upload_page_answers_429_with_retry_after(staff_client):
    for seed in range(20, 25):
        assert staff_client.post("/upload/", {"log": text(human_log(seed=seed))}).status_code == 302

    refused = staff_client.post("/upload/", {"log": text(human_log(seed=30))})

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert b"Too many uploads" in refused.content


def test_the_upload_page_counts_a_batch_file_by_its_lines(staff_client):
    batch = jsonl(*(human_log(seed=seed) for seed in range(40, 46)))

    refused = staff_client.post("/upload/", {"file": SimpleUploadedFile("six.jsonl", batch)})

    assert refused.status_code == 413
    assert b"a batch is at most 5 logs, the hourly upload limit" in refused.content
    assert not Upload.objects.exists()
    assert stored_bodies() == []
