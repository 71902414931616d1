"""Missing services: skipped locally, a failure under CI=true (where every service must be
there, so a green CI run always exercised them)."""

import os
from typing import NoReturn

import pytest

UNDER_CI = os.environ.get("CI", "").lower() == "true"


def service_missing(reason: str) -> NoReturn:
    """Skip locally; fail under CI, where every service must be there."""
    if UNDER_CI:
        pytest.fail(f"{reason} (required under CI=true)", pytrace=False)
    pytest.skip(reason)
