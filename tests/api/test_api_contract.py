"""The API keeps its OpenAPI contract on a database with data in it (schemathesis): for
every operation, generated requests that succeed and requests that fail, each response
checked against the schema (status code, content type, headers and body:
response_schema_conformance) and never a server error.

Generated requests alone mostly miss: a random id names no log, a random object is no game
log. So each example either goes as generated or is pointed at the seeded data (an id that
exists, a log that verifies, a filter that matches), and each operation must have answered
both a success and a client error. Bounded in time: EXAMPLES per operation, ~30 s in all.
"""

from __future__ import annotations

import json

import pytest
from api_schema_support import schema, token
from games_support import human_log, jsonl, sitting_as, submit, text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from games.models import Game, GameLog

pytestmark = pytest.mark.django_db
__all__ = ["submit", "token"]  # fixtures


EXAMPLES = 25
OPERATIONS = [
    (operation.method.upper(), operation.path)
    for operation in (result.ok() for result in schema.get_all_operations())
]
# Left out: a body matching the schema's "any object" may still not be a game log (a 400
# naming why is right), and an empty filter parameter means "no filter", as in django-filter
# everywhere. Every other check schemathesis has runs, response_schema_conformance included.
EXCLUDED_CHECKS = [positive_data_acceptance, negative_data_rejection]


@pytest.fixture
def seeded(submit, token, django_user_model) -> dict[str, list]:
    """Verified games, a rejected log, logs not stored yet (for uploads that succeed), and a
    game waiting for the token's user (who plays as Coral) to confirm it."""
    verified = [submit(text(human_log(seed=seed))) for seed in (301, 302, 303)]
    sitting_as(Token.objects.get(key=token).user, "Coral")
    marina = sitting_as(django_user_model.objects.create_user("marina"), "Marina Abyss")
    pending = submit(text(human_log(seed=305)), user=marina)
    tampered = human_log(seed=304)
    tampered["result"]["scores"][0] += 1
    rejected = submit(text(tampered))
    assert {log.status for log in verified} == {GameLog.Status.VERIFIED}
    assert rejected.status == GameLog.Status.REJECTED
    logs = [*verified, rejected]
    return {
        "log": [log.pk for log in logs],
        "pending": [pending.pk],
        "upload": [log.upload_id for log in logs],
        "game": list(Game.objects.values_list("pk", flat=True)),
        "new_logs": [human_log(seed=seed) for seed in range(310, 320)],
        "filters": [
            {},
            {"game": "deep-dive"},
            {"status": "verified"},
            {"player": "nemo"},
            {"source": "human"},
            {"page": 1},
        ],
    }


def towards_the_seeded_data(case, data: st.DataObject, seeded: dict[str, list]) -> None:
    """Point a generated request at what exists: ids, logs that verify, filters that match."""
    if "log" in (case.path_parameters or {}):  # /api/confirmations/{log}/confirm|dispute/
        case.path_parameters["log"] = seeded["pending"][0]
        if case.operation.path.endswith("/dispute/"):
            case.media_type = "application/json"
            case.body = {"event": 1, "reason": "the shark die showed a 3, not a 5"}
    elif "id" in (case.path_parameters or {}):
        kind = case.operation.path.split("/")[2].rstrip("s")  # /api/logs/{id}/ -> log
        case.path_parameters["id"] = data.draw(st.sampled_from(seeded[kind]), label="id")
    elif case.method.upper() == "POST":
        logs = data.draw(st.lists(st.sampled_from(seeded["new_logs"]), min_size=1, max_size=3))
        if case.operation.path == "/api/logs/":
            case.media_type, case.body = "application/json", json.loads(text(logs[0]))
        else:
            case.media_type, case.body = "application/jsonl", jsonl(*logs).decode()
        case.query = {}
    else:
        allowed = {p.name for p in case.operation.query}
        matching = [f for f in seeded["filters"] if set(f) <= allowed]
        case.query = data.draw(st.sampled_from(matching), label="query")


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_every_operation_succeeds_and_fails_within_its_schema(method, path, token, seeded):
    operation = schema[path][method]
    statuses: list[int] = []

    @given(case=operation.as_strategy(), seeded_request=st.booleans(), data=st.data())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def call(case, seeded_request, data):
        if seeded_request:
            towards_the_seeded_data(case, data, seeded)
        response = case.call_and_validate(
            headers={"Authorization": f"Token {token}"}, excluded_checks=EXCLUDED_CHECKS
        )
        statuses.append(response.status_code)

    call()

    assert any(200 <= status < 300 for status in statuses), statuses
    assert any(400 <= status < 500 for status in statuses), statuses
