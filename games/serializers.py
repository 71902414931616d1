"""API representations of uploads, logs and verified games."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engines.core.game import BID, TURN_ORDER
from games.filters import CONFIRMATION_CHOICES
from games.models import BatchState, Game, GameLog, GameSeat, Upload


class SeatSerializer(serializers.ModelSerializer):
    player = serializers.SlugRelatedField(slug_field="handle", read_only=True, allow_null=True)
    summary = serializers.DictField(
        child=serializers.IntegerField(),
        read_only=True,
        allow_null=True,
        help_text="What the game's engine summarises of this seat, null when it summarises "
        "nothing. Deep Vents: `turn` (position in turn order, 1 = first) and `bid` (the "
        "seat's highest bid, absent when it only passed), DV-3.",
    )
    # The fields the API has always had, read from the summary now that it holds them.
    turn_order = serializers.SerializerMethodField(
        help_text="`summary.turn`: the seat's position in turn order (1 = first), null when "
        "the game has none."
    )
    bid = serializers.SerializerMethodField(
        help_text="`summary.bid`: the seat's highest bid, null when it made none."
    )

    class Meta:
        model = GameSeat
        fields = [
            "seat",
            "name",
            "player",
            "strategy",
            "score",
            "rank",
            "winner",
            "turn_order",
            "bid",
            "summary",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_turn_order(self, seat: GameSeat) -> int | None:
        return (seat.summary or {}).get(TURN_ORDER)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_bid(self, seat: GameSeat) -> int | None:
        return (seat.summary or {}).get(BID)

    def to_representation(self, seat: GameSeat) -> dict[str, Any]:
        """What the fields above give, written at once: a page of the games list has 200
        seats, and DRF's field by field reading was half the list's time (issue 25). The
        player's handle is read with the seat (games.pagination.with_seats: `handle`)."""
        summary = seat.summary
        return {
            "seat": seat.seat,
            "name": seat.name,
            "player": seat.handle,
            "strategy": seat.strategy,
            "score": float(seat.score),
            "rank": seat.rank,
            "winner": seat.winner,
            "turn_order": (summary or {}).get(TURN_ORDER),
            "bid": (summary or {}).get(BID),
            "summary": None
            if summary is None
            else {str(k): None if v is None else int(v) for k, v in summary.items()},
        }


class GameSerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="game_type")
    seats = SeatSerializer(many=True, read_only=True)
    page = serializers.CharField(source="get_absolute_url", read_only=True)
    counts = serializers.BooleanField(
        read_only=True,
        help_text="Counts for ratings, standings and statistics: false while its players "
        "have still to confirm it, or while disputed (see /api/confirmations/).",
    )
    confirmation = serializers.ChoiceField(
        choices=CONFIRMATION_CHOICES,
        read_only=True,
        help_text="Where the game stands with its players: counts, pending (waiting for "
        "their confirmation), disputed (staff decide) or rejected. Filter with "
        "?confirmation=.",
    )

    class Meta:
        model = Game
        fields = [
            "id", "log", "game", "ruleset", "ruleset_options", "edition", "player_count",
            "source", "played_at", "termination", "counts", "confirmation", "page", "seats",
        ]  # fmt: skip


class GameDetailSerializer(GameSerializer):
    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "facts"]


class VerdictErrorSerializer(serializers.Serializer):
    """The engine's LogError.to_dict(): where and why a log was rejected."""

    kind = serializers.CharField()
    message = serializers.CharField()
    index = serializers.IntegerField(allow_null=True, required=False)
    seat = serializers.IntegerField(allow_null=True, required=False)
    rule = serializers.CharField(allow_null=True, required=False)
    field = serializers.CharField(allow_null=True, required=False)
    text = serializers.CharField()


class LogSerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="game_type")
    error = VerdictErrorSerializer(allow_null=True, read_only=True)
    game_id = serializers.SerializerMethodField()
    page = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = GameLog
        fields = [
            "id", "upload", "line", "game", "sha256", "status", "error", "attempts",
            "created", "verified_at", "game_id", "page",
        ]  # fmt: skip

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_game_id(self, log: GameLog) -> int | None:
        game = getattr(log, "game", None) if log.status == GameLog.Status.VERIFIED else None
        return game.pk if game else None


class SubmittedLogSerializer(LogSerializer):
    duplicate = serializers.BooleanField(help_text="True when this log was already stored.")

    class Meta(LogSerializer.Meta):
        fields = [*LogSerializer.Meta.fields, "duplicate"]


class LineErrorSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    error = serializers.CharField()


class DuplicateLineSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    log = serializers.IntegerField(required=False, help_text="The log already stored.")
    same_as_line = serializers.IntegerField(required=False, help_text="Repeated in this batch.")


class StatusCountsSerializer(serializers.Serializer):
    queued = serializers.IntegerField()
    verifying = serializers.IntegerField()
    verified = serializers.IntegerField()
    rejected = serializers.IntegerField()
    error = serializers.IntegerField()


class UploadSerializer(serializers.ModelSerializer):
    total = serializers.SerializerMethodField(help_text="Logs stored from this upload.")
    counts = serializers.SerializerMethodField(help_text="Logs per status.")
    done = serializers.SerializerMethodField(
        help_text="The batch is read and every log has its verdict."
    )
    line_errors = LineErrorSerializer(many=True, read_only=True)
    duplicates = DuplicateLineSerializer(many=True, read_only=True)
    page = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = Upload
        fields = [
            "id", "filename", "source", "published", "created", "total", "counts", "done",
            "line_errors", "duplicates", "page",
            "batch_state", "bytes_total", "bytes_read", "lines_read", "line_error_count",
        ]  # fmt: skip

    def status_counts(self, upload: Upload) -> dict[str, int]:
        cache = self.context.setdefault("status_counts", {})
        if upload.pk not in cache:
            rows = upload.logs.order_by().values_list("status").annotate(n=Count("pk"))
            counts = dict.fromkeys(GameLog.Status.values, 0)
            counts.update(dict(rows))
            cache[upload.pk] = counts
        return cache[upload.pk]

    def get_total(self, upload: Upload) -> int:
        return sum(self.status_counts(upload).values())

    @extend_schema_field(StatusCountsSerializer)
    def get_counts(self, upload: Upload) -> dict[str, int]:
        return self.status_counts(upload)

    def get_done(self, upload: Upload) -> bool:
        counts = self.status_counts(upload)
        unfinished = counts[GameLog.Status.QUEUED] + counts[GameLog.Status.VERIFYING]
        return upload.batch_state == BatchState.READ and unfinished == 0
