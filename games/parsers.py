"""Request bodies taken as they are: a log is stored exactly as received, so it must not
go through a JSON parser first (which would also choke on hostile input before intake
can name the problem)."""

from __future__ import annotations

from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.parsers import BaseParser


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


class RawLogParser(BaseParser):
    """One JSON log: the body's bytes, at most GAMES_MAX_LOG_BYTES."""

    media_type = "application/json"

    def parse(self, stream: IO[bytes] | None, media_type=None, parser_context=None) -> bytes:
        if stream is None:
            return b""
        limit = settings.GAMES_MAX_LOG_BYTES
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise BodyTooLarge(
                f"a log in the request body is at most {limit} bytes; "
                "send large batches as a .jsonl file to /api/uploads/"
            )
        return body


class JSONLinesParser(BaseParser):
    """A JSON Lines batch: the body stream itself, read line by line by intake."""

    media_type = "application/jsonl"

    def parse(self, stream: IO[bytes] | None, media_type=None, parser_context=None) -> Any:
        return stream if stream is not None else iter(())


class NDJSONParser(JSONLinesParser):
    media_type = "application/x-ndjson"
