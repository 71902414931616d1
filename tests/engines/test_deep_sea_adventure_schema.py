"""The published JSON Schemas in docs/schemas/ match what the engines generate."""

import json
from pathlib import Path

import pytest

from engines.registry import get_game

DOCS = Path(__file__).parents[2] / "docs" / "schemas"


@pytest.mark.parametrize("game_id", ["deep-sea-adventure", "deep-sea-adventure-boost"])
def test_the_published_schema_is_up_to_date(game_id: str):
    published = json.loads((DOCS / f"{game_id}.schema.json").read_text())
    assert published == get_game(game_id).schema(), (
        f"regenerate with: python -m engines schema {game_id} > docs/schemas/{game_id}.schema.json"
    )
