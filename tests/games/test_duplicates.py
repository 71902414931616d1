"""The same log sent again is recognised as the stored one, even by many clients at once."""

import threading

import pytest
from django.db import connection
from games_support import human_log, jsonl, submit, submit_lines, text

from games.models import GameLog, Upload
from games.services.intake import submit_log

__all__ = ["submit", "submit_lines"]


@pytest.mark.django_db
def test_a_log_sent_twice_is_one_row_and_the_second_reply_says_duplicate(submit):
    first = submit(text(human_log(seed=50)))
    second = submit(text(human_log(seed=50)))

    assert (first.duplicate, second.duplicate) == (False, True)
    assert second.pk == first.pk
    assert GameLog.objects.count() == 1
    assert first.sha256 == GameLog.digest(text(human_log(seed=50)))


@pytest.mark.django_db
def test_the_raw_log_is_stored_exactly_as_received(submit):
    raw = (
        '{ "format":"deepsea-log/1" ,\n'
        + text(human_log(seed=51))[len('{"format":"deepsea-log/1",') :]
    )

    stored = submit(raw)

    assert stored.raw == raw
    assert stored.status == GameLog.Status.VERIFIED


@pytest.mark.django_db
def test_a_batch_reports_lines_already_stored_and_lines_repeated_in_it(submit, submit_lines):
    earlier = submit(text(human_log(seed=52)))

    upload = submit_lines(jsonl(*(text(human_log(seed=s)) for s in (53, 52, 53))))

    assert upload.logs.count() == 1
    assert upload.duplicates == [{"line": 2, "log": earlier.pk}, {"line": 3, "same_as_line": 1}]


class QueueRecorder:
    """Stands in for the verification task: these tests are about intake, so they record
    what was sent (as each submission commits) instead of verifying in each client's thread."""

    def __init__(self) -> None:
        self.queued: list[int] = []
        self.lock = threading.Lock()

    name = "tests.queue_recorder"

    def delay(self, log_ids: int | list[int]) -> None:
        with self.lock:
            self.queued.extend(log_ids if isinstance(log_ids, list) else [log_ids])


@pytest.fixture
def queue(monkeypatch) -> QueueRecorder:
    recorder = QueueRecorder()
    monkeypatch.setattr("games.services.intake.verify_log_task", recorder)
    monkeypatch.setattr("games.services.intake.verify_logs_task", recorder)
    return recorder


def test_many_clients_submitting_the_same_log_at_once_store_it_once(
    postgresql, transactional_db, queue
):
    raw = text(human_log(seed=54))
    clients = 8
    start = threading.Barrier(clients)
    results, errors = [], []

    def client() -> None:
        try:
            start.wait()
            results.append(submit_log(raw, user=None))
        except Exception as error:  # reported below, with the others
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert GameLog.objects.count() == 1
    assert len({log.pk for log in results}) == 1
    assert sorted(log.duplicate for log in results) == [False] + [True] * (clients - 1)
    # The losers' uploads were rolled back with their insert: nothing is left half-stored.
    assert Upload.objects.count() == 1
    assert queue.queued == [results[0].pk]


def test_concurrent_batches_with_overlapping_logs_store_each_log_once(
    postgresql, transactional_db, queue
):
    from games.services.intake import submit_batch

    logs = [human_log(seed=seed) for seed in range(60, 70)]
    batches = [jsonl(*logs[:7]), jsonl(*logs[3:]), jsonl(*logs[::2])]
    start = threading.Barrier(len(batches))
    errors = []

    def client(data: bytes) -> None:
        try:
            start.wait()
            submit_batch(iter(data.splitlines(keepends=True)), user=None)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(data,)) for data in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert GameLog.objects.count() == 10
    reported = sum(len(u.logs.all()) + len(u.duplicates) for u in Upload.objects.all())
    assert reported == 7 + 7 + 5
    assert sorted(queue.queued) == sorted(GameLog.objects.values_list("pk", flat=True))
