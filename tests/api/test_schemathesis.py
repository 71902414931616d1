"""Property-based API tests from the OpenAPI schema (schemathesis): whatever the generated
request, no server error and no response the schema does not describe. Bounded in time:
a few examples per operation, the same ones every run under CI=true (the "ci" Hypothesis
profile, tests/conftest.py); `make fuzz` draws new ones, many more."""

import pytest
from api_schema_support import schema, token
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

__all__ = ["token"]  # a fixture


@pytest.mark.django_db
@schema.parametrize()
@hypothesis_settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_answers_every_generated_request_within_its_schema(case, token):
    # Left out: a body matching the schema's "any object" may still not be a game log (a 400
    # naming why is right), and an empty filter parameter means "no filter", as in
    # django-filter everywhere. Server errors and responses off the schema are all checked.
    case.call_and_validate(
        headers={"Authorization": f"Token {token}"},
        excluded_checks=[positive_data_acceptance, negative_data_rejection],
    )
