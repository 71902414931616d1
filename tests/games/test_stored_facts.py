"""A game's replay facts, stored compressed (games.models.CompressedJSONField): read back
exactly as written, whichever JSON writer wrote them."""

import json
import zlib

from games.models import CompressedJSONField

FACTS = [
    {"type": "offer", "seat": 0, "row": [{"position": 1, "hex": "anglerfish", "archaea": 0}]},
    {"type": "round", "points": [3, 0, -1], "note": "café ✓", "share": 0.25},
]


def test_facts_read_back_as_written_and_as_the_stdlib_wrote_them_before():
    field = CompressedJSONField()
    older = zlib.compress(json.dumps(FACTS).encode())  # rows stored before orjson wrote them

    assert field.from_db_value(zlib.compress(field.dumps(FACTS)), None, None) == FACTS
    assert field.from_db_value(older, None, None) == FACTS


def test_integers_beyond_64_bits_are_kept_exactly():
    field = CompressedJSONField()
    huge = [{"type": "score", "value": 2**70 + 1, "seat": 1}]

    stored = zlib.compress(field.dumps(huge))

    assert field.from_db_value(stored, None, None) == huge
