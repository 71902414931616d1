"""The REST API: submit logs and batches, follow their verdicts, list verified games.

Token or session authentication; session-authenticated writes need the CSRF token.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from games.filters import GameFilter, LogFilter, with_confirmation
from games.models import Game, GameLog, Source, Upload
from games.pagination import GameCursorPagination
from games.parsers import BodyTooLarge, JSONLinesParser, NDJSONParser, RawLogParser
from games.permissions import StaffDeletes, UploadThrottle, upload_refusal
from games.serializers import (
    GameDetailSerializer,
    GameSerializer,
    LogSerializer,
    SubmittedLogSerializer,
    UploadSerializer,
)
from games.services.batch_intake import (
    LengthRequired,
    chunked_body,
    is_chunked,
    most_logs_per_batch,
    start_batch,
    store_body,
)
from games.services.intake import IntakeError, submit_log
from games.services.removal import delete_log
from games.services.table_desk import table_desk

SUBMIT_PARAMETERS = [
    OpenApiParameter(
        "published", OpenApiTypes.BOOL, description="Visible to everyone (default true)."
    ),
    OpenApiParameter("table", OpenApiTypes.INT, description="Attach to this tournament table."),
]


class ProblemSerializer(serializers.Serializer):
    detail = serializers.CharField()
    error = serializers.JSONField(required=False)


class FileUploadSerializer(serializers.Serializer):
    file = serializers.FileField()


BAD_REQUEST = OpenApiResponse(
    OpenApiTypes.OBJECT,
    description="Not a log, or a bad parameter: `detail` (and the engine's `error`) or "
    "field-by-field messages.",
)
NOT_FOUND = OpenApiResponse(ProblemSerializer, description="No such item visible to you.")
READ_PROBLEMS = {400: BAD_REQUEST, 404: NOT_FOUND}
PROBLEMS = {
    400: BAD_REQUEST,
    401: OpenApiResponse(ProblemSerializer, description="Sign in or send a token."),
    403: OpenApiResponse(ProblemSerializer, description="Not allowed (or CSRF token missing)."),
    413: OpenApiResponse(ProblemSerializer, description="Over the size limit."),
    415: OpenApiResponse(ProblemSerializer, description="Unsupported content type."),
    429: OpenApiResponse(ProblemSerializer, description="Too many uploads; wait."),
}
SUBMIT_PROBLEMS = {
    **PROBLEMS,
    503: OpenApiResponse(
        ProblemSerializer,
        description="Uploads paused: Redis (which counts uploads) is unreachable; nothing "
        "was stored. Retry after the Retry-After header's seconds.",
    ),
}

TABLE_PROBLEMS = {
    403: OpenApiResponse(
        ProblemSerializer, description="Not allowed, or not allowed to give that table a result."
    ),
    404: OpenApiResponse(ProblemSerializer, description="No such table."),
    409: OpenApiResponse(
        ProblemSerializer, description="The table already has a result, or its round is over."
    ),
}


def submission_options(request: Request) -> dict:
    """`published` and `table` from the query string (or form fields)."""
    values = {**request.query_params.dict()}
    if hasattr(request.data, "dict"):
        values.update({k: v for k, v in request.data.dict().items() if k != "file"})
    published = str(values.get("published", "true")).strip().lower()
    if published not in {"true", "false", "1", "0", "yes", "no"}:
        raise ValidationError({"published": "true or false"})
    options = {"published": published in {"true", "1", "yes"}, "table": None}
    if values.get("table") not in (None, ""):
        text = str(values["table"]).strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 18):
            raise ValidationError({"table": "a table id (a whole number)"})
        options["table"] = int(text)
    return options


def uploaded_file(request: Request, limit: int):
    """The multipart `file`, or None when the body is not multipart."""
    if not request.content_type.startswith("multipart/"):
        return None
    file = request.data.get("file") if hasattr(request.data, "get") else None
    if file is None or not hasattr(file, "size"):
        raise ValidationError({"file": "a multipart upload needs a file field named file"})
    if file.size > limit:
        raise BodyTooLarge(f"file of {file.size} bytes is over the limit of {limit} bytes")
    return file


def refuse(error: IntakeError) -> Response:
    return Response({"detail": error.message, "error": error.error}, status=error.status)


def creating(view) -> bool:
    """A POST, or the create action (as the schema generator sees it, without a request)."""
    request = getattr(view, "request", None)
    return getattr(view, "action", None) == "create" or (
        request is not None and request.method == "POST"
    )


class SubmitMixin:
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, StaffDeletes]
    # Any id reaches the view, so a malformed one gets the API's JSON 404, not an HTML page.
    lookup_value_regex = "[^/]+"

    def get_throttles(self):
        if self.request.method == "POST":
            return [UploadThrottle()]
        return super().get_throttles()


@extend_schema(tags=["logs"])
@extend_schema_view(
    list=extend_schema(responses={200: LogSerializer(many=True), **READ_PROBLEMS}),
    retrieve=extend_schema(responses={200: LogSerializer, 404: NOT_FOUND}),
)
class LogViewSet(
    SubmitMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Game logs as submitted, with their status and verdict."""

    serializer_class = LogSerializer
    filterset_class = LogFilter

    def get_queryset(self):
        logs = GameLog.objects.select_related("upload", "game").order_by("-created", "-pk")
        return logs.visible_to(self.request.user)

    def get_parsers(self):
        if creating(self):
            return [RawLogParser(), MultiPartParser()]
        return super().get_parsers()

    @extend_schema(
        summary="Submit one log",
        description=(
            "The body is the log itself (application/json, at most GAMES_MAX_LOG_BYTES, "
            "1 MB by default), stored byte for byte; or a multipart `file`. Returns 201 "
            "with the queued log, or 200 with the stored log when it was already there."
        ),
        parameters=SUBMIT_PARAMETERS,
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": FileUploadSerializer,
        },
        responses={
            201: SubmittedLogSerializer,
            200: SubmittedLogSerializer,
            **SUBMIT_PROBLEMS,
            **TABLE_PROBLEMS,
        },
    )
    def create(self, request: Request, *args, **kwargs) -> Response:
        options = submission_options(request)
        file = uploaded_file(request, settings.GAMES_MAX_LOG_BYTES)
        raw = file.read() if file is not None else request.data
        if not isinstance(raw, bytes):  # an empty body never reaches the parser
            raw = b""
        filename = file.name if file is not None else ""
        try:
            if options["table"] is not None:
                log = table_desk().attach(
                    options["table"], raw, user=request.user, filename=filename
                )
            else:
                log = submit_log(
                    raw,
                    user=request.user,
                    source=Source.HUMAN,
                    published=options["published"],
                    filename=filename,
                )
        except IntakeError as error:
            return refuse(error)
        data = SubmittedLogSerializer(log, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_200_OK if log.duplicate else 201)

    @extend_schema(
        summary="Delete a log and its game (staff)",
        responses={204: None, 404: NOT_FOUND, **PROBLEMS},
    )
    def destroy(self, request: Request, pk: str | None = None, **kwargs) -> Response:
        log = self.get_object()
        with transaction.atomic():
            delete_log(log.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["uploads"])
@extend_schema_view(
    list=extend_schema(responses={200: UploadSerializer(many=True), **READ_PROBLEMS}),
    retrieve=extend_schema(responses={200: UploadSerializer, 404: NOT_FOUND}),
)
class UploadViewSet(
    SubmitMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Submissions: a batch's progress, bad lines and duplicates."""

    serializer_class = UploadSerializer

    def get_queryset(self):
        return Upload.objects.visible_to(self.request.user).order_by("-created", "-pk")

    def get_parsers(self):
        if creating(self):
            return [JSONLinesParser(), NDJSONParser(), MultiPartParser()]
        return super().get_parsers()

    def get_throttles(self):
        # A batch is counted by its logs, known once its body is stored (in create).
        return [] if self.request.method == "POST" else super().get_throttles()

    @extend_schema(
        summary="Submit a batch of logs (JSON Lines)",
        description=(
            "One log per line: the body itself (application/jsonl) or a multipart `file`, at "
            "most GAMES_MAX_UPLOAD_BYTES. The body is stored and the answer is at once a 202 "
            "with the upload (its URL in `Location`, its page in `page`); a worker then reads "
            "it line by line: follow `batch_state`, `lines_read` and `bytes_read`. Good lines are "
            "stored and queued; each bad line is reported by line number in `line_errors`, "
            "lines already stored in `duplicates`. The batch counts against the hourly upload "
            "limit by its number of lines."
        ),
        parameters=SUBMIT_PARAMETERS[:1],
        request={
            "application/jsonl": OpenApiTypes.STR,
            "multipart/form-data": FileUploadSerializer,
        },
        responses={202: UploadSerializer, **SUBMIT_PROBLEMS},
    )
    def create(self, request: Request, *args, **kwargs) -> Response:
        options = submission_options(request)
        if options["table"] is not None:
            return refuse(IntakeError("a table takes a single log: POST it to /api/logs/"))
        limit = settings.GAMES_MAX_UPLOAD_BYTES
        length = request.META.get("CONTENT_LENGTH") or ""
        expected = int(length) if length.isdigit() else None
        try:
            if is_chunked(request) and expected is None:
                if request.content_type.startswith("multipart/"):
                    raise LengthRequired(
                        "a chunked multipart body cannot be read: send the batch as the body "
                        "itself (Content-Type: application/jsonl) or with a Content-Length"
                    )
                file, stream = None, chunked_body(request)
            else:
                file = uploaded_file(request, limit)
                if file is None and (expected or 0) > limit:
                    raise BodyTooLarge(f"a batch is at most {limit} bytes")
                # An empty body never reaches the parser: DRF gives an empty dict for it.
                stream = request.data if hasattr(request.data, "read") else io.BytesIO(b"")
            body = store_body(
                file if file is not None else stream,
                expected=expected if file is None else None,
                max_lines=most_logs_per_batch(),
            )
        except IntakeError as error:
            return refuse(error)
        refusal = upload_refusal(request, body.lines)
        if refusal is not None:
            body.discard()
            headers = {"Retry-After": str(refusal.retry_after)} if refusal.retry_after else {}
            return Response({"detail": refusal.message}, status=refusal.status, headers=headers)
        upload = start_batch(
            body,
            user=request.user,
            source=Source.HUMAN,
            published=options["published"],
            filename=file.name if file is not None else "",
        )
        upload.refresh_from_db()  # read already, when tasks run in-process
        data = UploadSerializer(upload, context=self.get_serializer_context()).data
        location = reverse("api:upload-detail", args=[upload.pk], request=request)
        return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": location})


class GameFilterBackend(DjangoFilterBackend):
    """django-filter's backend, except that a request naming no parameter but the page's
    cursor is not filtered at all: building GameFilter and its form for nothing was a tenth
    of the API list's time (issue 25). With no filter given, the filter set would give the
    queryset as it is (GameFilter's `confirmation` the view's queryset has already)."""

    def filter_queryset(self, request: Request, queryset: QuerySet, view: Any) -> QuerySet:
        if request.query_params.keys() <= {GameCursorPagination.cursor_query_param}:
            return queryset
        return super().filter_queryset(request, queryset, view)


@extend_schema(tags=["games"])
@extend_schema_view(
    list=extend_schema(responses={200: GameSerializer(many=True), **READ_PROBLEMS}),
    retrieve=extend_schema(responses={200: GameDetailSerializer, 404: NOT_FOUND}),
)
class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """Verified games: what replay derived (seats, scores, ranks, bids, turn order)."""

    filterset_class = GameFilter
    filter_backends = [GameFilterBackend]
    lookup_value_regex = "[^/]+"
    # Newest first by keyset: a deep page costs what the first does (games/pagination.py).
    pagination_class = GameCursorPagination

    def get_queryset(self):
        games = with_confirmation(
            Game.objects.visible_to(self.request.user).order_by("-played_at", "-pk")
        )
        if self.action == "retrieve":
            games = games.select_related("log")  # the detail's facts replay the log
        # The seats are read by the serializer, as rows (games.serializers.seats_written).
        return games

    def get_serializer_class(self):
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer

    def get_object(self):
        try:
            return super().get_object()
        except (ValueError, OverflowError):
            raise NotFound() from None
