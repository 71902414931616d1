"""Property-based API tests from the OpenAPI schema (schemathesis): whatever the generated
request, no server error and no response the schema does not describe. Bounded in time:
a few examples per operation."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
# A batch body is JSON Lines text (its schema: a string); sent as generated, like text/plain.
schemathesis.serializer.alias("application/jsonl", "text/plain")


@pytest.fixture
def token(django_user_model, settings):
    """A staff user's token (so every operation, DELETE included, is exercised). Requests go
    straight to the WSGI app, so its end-of-request connection closing is switched off, as
    Django's test client does, or the test's transaction would be closed under it."""
    settings.ALLOWED_HOSTS = ["localhost"]
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    user = django_user_model.objects.create_user("schemathesis", is_staff=True)
    yield Token.objects.create(user=user).key
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


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
