"""The confirmation API (mounted at /api/): what waits for the signed-in player, and their
answer to a game: confirm, or dispute an event. Every answer is idempotent."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from confirmations import notify, services
from confirmations.models import Confirmation
from games.api import BAD_REQUEST, NOT_FOUND, ProblemSerializer


class PendingSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.FloatField()
    rank = serializers.IntegerField()
    winner = serializers.BooleanField()


class PendingGameSerializer(serializers.Serializer):
    """The game in words, as the pending page and its notice tell it."""

    name = serializers.CharField(
        help_text="The game in words, e.g. 'Deep Vents, 28 Nov 2026: Club Night · round 1 · "
        "table 2', or its players when it was played at no tournament table."
    )
    title = serializers.CharField(help_text="The game, e.g. Deep Vents.")
    played_at = serializers.DateTimeField(allow_null=True)
    where = serializers.CharField(help_text="Tournament, round and table; blank if none.")
    seats = PendingSeatSerializer(many=True)
    result = serializers.CharField(help_text="e.g. 'Bea Benthic won with 42'.")
    submitter = serializers.CharField()
    time_left = serializers.CharField(
        help_text="Until silence counts as consent, e.g. '47 h left'."
    )


class ConfirmationSerializer(serializers.ModelSerializer):
    log = serializers.IntegerField(source="review.log_id", read_only=True)
    player = serializers.SlugRelatedField(slug_field="handle", read_only=True)
    game_status = serializers.CharField(source="review.status", read_only=True)
    deadline = serializers.DateTimeField(
        source="review.deadline",
        read_only=True,
        help_text="The game counts at this moment if nobody disputes it before.",
    )
    game_url = serializers.SerializerMethodField(help_text="The game's page, with its replay.")
    game = serializers.SerializerMethodField()
    step = serializers.CharField(
        read_only=True,
        help_text="The disputed event in words, e.g. 'turn 7, Marina Trench: place Yeti Crab "
        "east of Deep Vent' (blank unless disputed).",
    )

    class Meta:
        model = Confirmation
        fields = [
            "log",
            "player",
            "answer",
            "answered_at",
            "at_table",
            "event",
            "step",
            "reason",
            "game_status",
            "deadline",
            "game_url",
            "game",
        ]
        read_only_fields = fields

    @extend_schema_field(PendingGameSerializer)
    def get_game(self, confirmation: Confirmation) -> dict:
        """From the view's descriptions of a page of games (one query set for all), else
        described alone."""
        games = self.context.get("games") or notify.described([confirmation.review_id])
        return PendingGameSerializer(games[confirmation.review_id]).data

    def get_game_url(self, confirmation: Confirmation) -> str:
        path = reverse("games:log", args=[confirmation.review.log_id])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class DisputeSerializer(serializers.Serializer):
    event = serializers.IntegerField(
        min_value=0, help_text="Index of the event contested (the replay opens at #event-N)."
    )
    reason = serializers.CharField(max_length=services.REASON_LENGTH, help_text="What is wrong.")


LOG = OpenApiParameter("log", OpenApiTypes.INT, OpenApiParameter.PATH, description="Log id.")
ANSWER_PROBLEMS = {
    400: BAD_REQUEST,  # a bad event (`detail`) or field-by-field messages; nothing stored
    401: OpenApiResponse(ProblemSerializer, description="Sign in or send a token."),
    403: OpenApiResponse(ProblemSerializer, description="This game does not wait for you."),
    404: NOT_FOUND,
    409: OpenApiResponse(
        ProblemSerializer, description="Answered otherwise already, or no longer open."
    ),
}


@extend_schema(tags=["confirmations"])
class ConfirmationViewSet(viewsets.GenericViewSet):
    """Games that name you wait for your confirmation before they count for ratings,
    standings and statistics (or until their window passes with nobody disputing)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = ConfirmationSerializer
    lookup_field = "log"
    # Any id reaches the view, so a malformed one gets the API's JSON 404, not an HTML page.
    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        return services.waiting_for(self.request.user).select_related("review", "player")

    @extend_schema(
        summary="Games waiting for your answer",
        responses={
            200: ConfirmationSerializer(many=True),
            401: ANSWER_PROBLEMS[401],
            404: OpenApiResponse(ProblemSerializer, description="No such page."),
        },
    )
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset().order_by("review__deadline", "pk"))
        games = notify.described(confirmation.review_id for confirmation in page)
        serializer = self.get_serializer(
            page, many=True, context={**self.get_serializer_context(), "games": games}
        )
        return self.get_paginated_response(serializer.data)

    def answered(self, request: Request, answer, *args, **kwargs) -> Response:
        try:
            log_id = int(self.kwargs["log"])
        except ValueError:
            raise NotFound(f"no log {self.kwargs['log'][:40]!r}") from None
        if not 0 < log_id < 2**63:
            raise NotFound(f"no log {log_id}")
        try:
            confirmation = answer(log_id, request.user, *args, **kwargs)
        except services.ConfirmationError as error:
            return Response({"detail": error.message}, status=error.status)
        return Response(self.get_serializer(confirmation).data)

    @extend_schema(
        summary="Confirm a game",
        parameters=[LOG],
        request=None,
        responses={200: ConfirmationSerializer, **ANSWER_PROBLEMS},
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, log: str) -> Response:
        return self.answered(request, services.confirm)

    @extend_schema(
        summary="Dispute a game at an event",
        parameters=[LOG],
        request=DisputeSerializer,
        responses={200: ConfirmationSerializer, **ANSWER_PROBLEMS},
    )
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, log: str) -> Response:
        body = DisputeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.answered(
            request, services.dispute, body.validated_data["event"], body.validated_data["reason"]
        )
