"""API representations of uploads, logs and verified games."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Manager
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.quick_urls import quick_url
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


# A seat's columns as the games' representations read them, the player's handle with them.
SEAT_COLUMNS = [
    "game_id", "seat", "name", "player__handle", "strategy", "score", "rank", "winner", "summary",
]  # fmt: skip


def seats_written(game_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each game's seats as SeatSerializer's fields give them, by game id: read as plain rows
    in one query and written at once. A page of the games list has up to 200 seats, and
    building them as seat and player instances, then reading them field by field, was
    most of the API list's time (issue 25). Pinned equal to SeatSerializer by a test."""
    rows = (
        GameSeat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list(*SEAT_COLUMNS)
    )
    seats: dict[int, list[dict[str, Any]]] = {game_id: [] for game_id in game_ids}
    for game_id, seat, name, handle, strategy, score, rank, winner, summary in rows:
        seats[game_id].append(
            {
                "seat": seat,
                "name": name,
                "player": handle,
                "strategy": strategy,
                "score": float(score),
                "rank": rank,
                "winner": winner,
                "turn_order": (summary or {}).get(TURN_ORDER),
                "bid": (summary or {}).get(BID),
                "summary": None
                if summary is None
                else {str(k): None if v is None else int(v) for k, v in summary.items()},
            }
        )
    return seats


# played_at as DRF writes a datetime (ISO 8601 in the current time zone, UTC as "Z"): one
# field for every game, not a serializer's fields copied for each request.
PLAYED_AT = serializers.DateTimeField(read_only=True)


class GameListSerializer(serializers.ListSerializer):
    """A page of games, their seats read for the whole page in one query (seats_written)."""

    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        games = list(data.all() if isinstance(data, Manager) else data)
        seats = seats_written([game.pk for game in games])
        # Each game's page by common.quick_urls, its URL pattern reversed once, not once a game:
        # reverse() was a tenth of the API list's time (issue 25).
        return [
            self.child.written(game, seats[game.pk], quick_url("games:log", game.log_id))
            for game in games
        ]


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
        list_serializer_class = GameListSerializer

    def to_representation(self, game: Game) -> dict[str, Any]:
        return self.written(game, seats_written([game.pk])[game.pk], game.get_absolute_url())

    def written(self, game: Game, seats: list[dict[str, Any]], page: str) -> dict[str, Any]:
        """What the fields above give, written at once: DRF reading them field by field for
        each of a page's 50 games was most of the API list's time left (issue 25). Every
        field but `confirmation` is a column that cannot be null, stored as DRF gives it.
        Pinned equal to the fields' output by a test."""
        return {
            "id": game.pk,
            "log": game.log_id,
            "game": game.game_type,
            "ruleset": game.ruleset,
            "ruleset_options": game.ruleset_options,
            "edition": game.edition,
            "player_count": game.player_count,
            "source": game.source,
            "played_at": PLAYED_AT.to_representation(game.played_at),
            "termination": game.termination,
            "counts": game.counts,
            "confirmation": game.confirmation,
            "page": page,
            "seats": seats,
        }


class GameDetailSerializer(GameSerializer):
    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "facts"]

    def written(self, game: Game, seats: list[dict[str, Any]], page: str) -> dict[str, Any]:
        return {**super().written(game, seats, page), "facts": game.facts}


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
