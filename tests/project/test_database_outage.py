"""While the database is unreachable every answer is a 503 with Retry-After (JSON for the
API, the site's page for HTML), never a 500; tasks retry with bounded backoff instead."""

import pytest
from django.db import OperationalError, connection
from django.test import Client, RequestFactory

from common.middleware import server_error
from common.outages import RETRY_AFTER_SECONDS, RETRY_LIMIT, RETRY_LONGEST_SECONDS
from games.tasks import verify_logs_task


def get_while_the_database_is_down(path: str):
    """GET `path` while every statement fails as on a connection the server dropped (the
    driver's error, wrapped by Django as it wraps a real one)."""

    def refuse(*args, **kwargs):
        raise connection.Database.OperationalError("server closed the connection unexpectedly")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(connection, "create_cursor", refuse)
        return Client().get(path)


@pytest.mark.parametrize("path", ["/api/logs/", "/api/games/"])
@pytest.mark.django_db
def test_the_api_answers_503_json_with_retry_after_while_the_database_is_down(path):
    response = get_while_the_database_is_down(path)

    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response["Content-Type"] == "application/json"
    assert "database is unreachable" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/leaderboards/", "/games/", "/stats/", "/tournaments/"])
@pytest.mark.django_db
def test_pages_answer_the_sites_503_page_with_retry_after_while_the_database_is_down(path):
    response = get_while_the_database_is_down(path)

    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Back in a moment" in page and 'class="site-header"' in page


def test_a_database_error_escaping_every_view_is_a_503_too():
    request = RequestFactory().get("/")
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        response = server_error(request)

    assert (response.status_code, response["Retry-After"]) == (503, str(RETRY_AFTER_SECONDS))


def test_any_other_error_stays_a_500():
    request = RequestFactory().get("/")
    try:
        raise KeyError("a bug")
    except KeyError:
        response = server_error(request)

    assert response.status_code == 500


def test_a_task_meeting_a_database_error_retries_with_bounded_backoff(monkeypatch):
    retries = []
    monkeypatch.setattr(verify_logs_task, "retry", lambda **options: retries.append(options))
    error = OperationalError("connection refused")
    monkeypatch.setattr(
        "games.services.verification.verify_logs",
        lambda *args, **kwargs: (_ for _ in ()).throw(error),
    )

    for attempt in range(8):
        verify_logs_task.push_request(id="task-1", retries=attempt, is_eager=False, kwargs={})
        try:
            with pytest.raises(TypeError):  # raising what the patched retry returned: None
                verify_logs_task.run([1, 2])
        finally:
            verify_logs_task.pop_request()

    countdowns = [options["countdown"] for options in retries]
    assert countdowns == sorted(countdowns[:4]) + countdowns[4:]  # growing, then capped
    assert countdowns[0] <= 1 and max(countdowns) <= RETRY_LONGEST_SECONDS
    assert all(options["kwargs"] == {"resume": True} for options in retries)
    assert all(
        options["max_retries"] == RETRY_LIMIT and options["exc"] is error for options in retries
    )
