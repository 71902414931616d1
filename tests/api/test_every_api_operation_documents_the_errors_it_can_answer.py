"""Every operation of the OpenAPI schema lists the error answers that the layers under every
view can give (deepsea/openapi.py), and each of them really happens, with a body that the
schema describes: a client (and schemathesis) never meets an undocumented answer."""

from __future__ import annotations

import pytest
from api_schema_support import schema, token
from django.db import connection
from django.test import Client

from common.outages import RETRY_AFTER_SECONDS

__all__ = ["token"]  # a fixture

pytestmark = pytest.mark.django_db

OPERATIONS = [result.ok() for result in schema.get_all_operations()]
THROTTLED = {("POST", "/api/logs/"), ("POST", "/api/uploads/")}  # UploadThrottle, upload_refusal
# Beyond any id a row can have (64 bits): no such log, game or upload.
NO_SUCH_ID = str(2**64)


def label(operation) -> str:
    return f"{operation.method.upper()} {operation.path}"


def expected_error_codes(method: str, path: str, has_body: bool) -> set[str]:
    """Worked out from the site's layers, not from deepsea/openapi.py: NUL bytes (400),
    token authentication (401), DRF's content negotiation (406) and the outage middleware
    (503) reach every operation; writes check CSRF and permissions (403); ids in the path and
    paginated lists can name nothing (404); a body can have the wrong type (415); uploads are
    throttled (429)."""
    codes = {"400", "401", "406", "503"}
    if method != "GET":
        codes.add("403")
    if "{" in path or method == "GET":
        codes.add("404")
    if has_body:
        codes.add("415")
    if (method, path) in THROTTLED:
        codes.add("429")
    return codes


def test_the_schema_has_the_twelve_operations_of_the_api():
    assert len(OPERATIONS) == 12


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_every_operation_lists_the_errors_every_view_can_answer(operation):
    method, path = operation.method.upper(), operation.path
    documented = set(operation.definition.raw["responses"])
    has_body = "requestBody" in operation.definition.raw

    missing = expected_error_codes(method, path, has_body) - documented

    assert not missing, f"{method} {path} does not list {sorted(missing)}"


def case_for(operation, **kwargs):
    """A request to `operation` naming an id that does not exist where the path takes one."""
    path_parameters = {parameter.name: NO_SUCH_ID for parameter in operation.path_parameters}
    return operation.Case(path_parameters=path_parameters, **kwargs)


def answered_as_documented(operation, case, response, status: int) -> None:
    assert response.status_code == status, response.text[:300]
    assert str(status) in operation.definition.raw["responses"]
    operation.validate_response(response)  # status code, content type and body shape
    assert response.json()["detail"]


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_a_nul_byte_in_the_query_gets_the_documented_400(operation, token):
    case = case_for(operation, query={"note": "a\x00b"})

    response = case.call(headers={"Authorization": f"Token {token}"})

    answered_as_documented(operation, case, response, 400)
    assert "NUL byte" in response.json()["detail"]


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_an_unknown_token_gets_the_documented_401(operation, token):
    case = case_for(operation)

    response = case.call(headers={"Authorization": "Token not-a-token"})

    answered_as_documented(operation, case, response, 401)
    assert response.headers["www-authenticate"] == ["Token"]


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_an_accept_header_no_renderer_satisfies_gets_the_documented_406(operation, token):
    case = case_for(operation)

    response = case.call(headers={"Authorization": f"Token {token}", "Accept": "application/xml"})

    answered_as_documented(operation, case, response, 406)


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_an_unreachable_database_gets_the_documented_503(operation, token, monkeypatch):
    case = case_for(operation)

    def refuse(*args, **kwargs):
        raise connection.Database.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(connection, "create_cursor", refuse)
    response = case.call(headers={"Authorization": f"Token {token}"})
    monkeypatch.undo()

    answered_as_documented(operation, case, response, 503)
    assert response.headers["retry-after"] == [str(RETRY_AFTER_SECONDS)]


@pytest.mark.parametrize(
    "operation", [op for op in OPERATIONS if op.method.upper() != "GET"], ids=label
)
def test_a_session_write_without_its_csrf_token_gets_the_documented_403(
    operation, token, django_user_model
):
    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_user("no-csrf", is_staff=True))
    case = case_for(operation)

    response = case.call(cookies={"sessionid": client.cookies["sessionid"].value})

    answered_as_documented(operation, case, response, 403)
    assert "CSRF" in response.json()["detail"]


@pytest.mark.parametrize(
    "operation", [op for op in OPERATIONS if "requestBody" in op.definition.raw], ids=label
)
def test_a_body_of_a_type_the_operation_does_not_read_gets_the_documented_415(operation, token):
    case = case_for(operation)

    response = case.call(
        headers={"Authorization": f"Token {token}", "Content-Type": "application/xml"},
        data=b"<log/>",
    )

    answered_as_documented(operation, case, response, 415)


# A dispute's body is read before its log is looked for: that one goes with a valid body.
DISPUTE = {"event": 1, "reason": "that tile was taken"}


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if "{" in op.path], ids=label)
def test_an_id_that_names_nothing_gets_the_documented_404(operation, token):
    if "dispute" in operation.path:
        case = case_for(operation, body=DISPUTE, media_type="application/json")
    else:
        case = case_for(operation)

    response = case.call(headers={"Authorization": f"Token {token}"})

    answered_as_documented(operation, case, response, 404)


@pytest.mark.parametrize(
    "operation",
    [op for op in OPERATIONS if "{" not in op.path and op.method.upper() == "GET"],
    ids=label,
)
def test_a_page_past_the_end_or_a_broken_cursor_gets_the_documented_404(operation, token):
    names = {parameter.name for parameter in operation.query}
    query = {"page": "999"} if "page" in names else {"cursor": "not-a-cursor"}
    case = case_for(operation, query=query)

    response = case.call(headers={"Authorization": f"Token {token}"})

    answered_as_documented(operation, case, response, 404)
