"""The error answers every API operation can give, written into the OpenAPI schema.

Views document what their own logic refuses (a log the engine rejects, a table that already
has a result). Other answers come from the layers under every view, and the schema lists
them too, so a client (and schemathesis) never meets an answer the schema does not name:

- 400: a NUL byte in the path or the query (common.errors.RefuseHostileRequests), a bad
  filter or parameter; `detail`, or field-by-field messages.
- 401: a wrong or unknown token (DRF answers 401 when its first authentication class names a
  scheme in WWW-Authenticate; 403 otherwise).
- 403: writes: a session without its CSRF token, or a permission that refuses.
- 404: an id in the path, a page past the end, or a number too large for the database.
- 406: an Accept header no renderer satisfies (DRF's content negotiation).
- 415: a body of a content type the operation does not parse.
- 429: where the view throttles the method, with Retry-After.
- 503: the database unreachable (common.middleware), with Retry-After.

SiteAutoSchema (REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS) adds each one the view did not
document already, with the site's real body shapes.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from common.outages import RETRY_AFTER_SECONDS

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
RETRY_AFTER_HEADER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer"},
    }
}


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What was wrong, in words.")


class OutageSerializer(serializers.Serializer):
    detail = serializers.CharField()
    retry_after = serializers.IntegerField(help_text=f"Seconds to wait ({RETRY_AFTER_SECONDS}).")


# A 400 is either `detail` (a NUL byte, a bad parameter) or DRF's field-by-field messages.
BAD_REQUEST_BODY = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "additionalProperties": True,
}


def error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


class SiteAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus the error answers that any view can give."""

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation["responses"]
        for code, (answer, headers) in self.common_error_answers(operation).items():
            if str(code) in responses:
                continue  # the view's own description says more
            responses[str(code)] = self._get_response_for_code(answer, str(code))
            if headers:
                responses[str(code)]["headers"] = headers
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def common_error_answers(self, operation: dict) -> dict[int, tuple[object, dict]]:
        """Status code -> (body, headers) of each error answer this operation can give."""
        answers: dict[int, tuple[object, dict]] = {
            400: (
                OpenApiResponse(
                    BAD_REQUEST_BODY,
                    description="A NUL byte in the URL or query, or a bad parameter.",
                ),
                {},
            ),
            406: (error("No renderer satisfies the Accept header."), {}),
            503: (
                OpenApiResponse(
                    OutageSerializer,
                    description="The database is unreachable for a moment; nothing changed.",
                ),
                RETRY_AFTER_HEADER,
            ),
        }
        refusal = self.authentication_refusal_code()
        answers[refusal] = (error("Wrong token or credentials, or none where needed."), {})
        if self.method in UNSAFE_METHODS:
            answers[403] = (error("Not allowed, or the session's CSRF token is missing."), {})
        if self.may_find_nothing():
            answers[404] = (error("No such item visible to you, or no such page."), {})
        if "requestBody" in operation:
            answers[415] = (error("The body's content type is not one this accepts."), {})
        if self.view.get_throttles():
            answers[429] = (error("Too many requests; wait."), RETRY_AFTER_HEADER)
        return answers

    def authentication_refusal_code(self) -> int:
        """DRF's choice (APIView.permission_denied): 401 when the first authentication class
        names a WWW-Authenticate scheme (TokenAuthentication does), else 403."""
        authenticators = self.view.get_authenticators()
        if authenticators and authenticators[0].authenticate_header(self.view.request):
            return 401
        return 403

    def may_find_nothing(self) -> bool:
        """An id in the path, a paginated list (a page past the end), or filters (a number
        too large for the database, common.errors.RefuseHostileRequests)."""
        if "{" in self.path:
            return True
        if self.method != "GET":
            return False
        return (
            getattr(self.view, "paginator", None) is not None
            or getattr(self.view, "filterset_class", None) is not None
        )
