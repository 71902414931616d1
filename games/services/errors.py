"""Why a submission was refused before anything was stored (intake, the table desk)."""

from __future__ import annotations

from typing import Any


class IntakeError(Exception):
    """A submission refused before anything was stored; `status` is the HTTP status."""

    status = 400

    def __init__(self, message: str, *, error: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.error = error or {"kind": "invalid", "message": message, "text": message}


class TooLarge(IntakeError):
    status = 413


class TableRefused(IntakeError):
    """A submission naming a table that cannot take it (404, 403, 409 or 400)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
