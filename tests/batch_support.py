"""What a batch's stored body looks like in the database (games.models.BatchPiece)."""

from __future__ import annotations

import zlib

from games.models import BatchPiece


def stored_bodies() -> list[bytes]:
    """Every stored batch body, its pieces put back together in order."""
    bodies: dict[str, bytes] = {}
    pieces = BatchPiece.objects.order_by("body", "number").values_list("body", "data")
    for key, data in pieces:
        bodies[key] = bodies.get(key, b"") + zlib.decompress(bytes(data))
    return list(bodies.values())
