"""The site's OpenAPI schema as schemathesis reads it, and a staff token to call every
operation with (tests/api/test_schemathesis.py, tests/api/test_api_contract.py)."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from rest_framework.authtoken.models import Token

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
    user = django_user_model.objects.create_user("api-tester", is_staff=True)
    yield Token.objects.create(user=user).key
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
