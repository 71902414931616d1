"""Helpers for the game-log tests (intake, verification, API): simulated logs and a
`submit` fixture that runs the queued verification as the submission commits."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest

from engines import get_game
from engines.core.log import dumps
from engines.core.simulate import simulate
from games.models import Game, GameLog, Source, Upload
from games.services.intake import submit_batch, submit_log
from players.services import players_for


def simulated_log(game_id: str = "deep-dive", seed: int = 1, players: int = 3) -> dict[str, Any]:
    """One bot game's log (result included), the same for the same seed."""
    game = get_game(game_id)
    return next(simulate(game, game.ruleset(None), players, 1, seed=seed))


def human_log(seed: int = 1, names: tuple[str, ...] = ("Marina Abyss", "Nemo", "Coral")) -> dict:
    """A bot game dressed as a human one: named players, no strategies."""
    log = simulated_log("deep-dive", seed, len(names))
    log["players"] = [{"name": name} for name in names]
    return log


def sitting_as(user: Any, name: str = "Nemo") -> Any:
    """The user, with the player `name` as their own (as if claimed): a non-staff user may
    submit only games they sit in, and human_log's games all seat Nemo."""
    player = players_for([name])[name]
    player.user = user
    player.save(update_fields=["user"])
    return user


def stored_game(upload: Upload, number: int, played_at: datetime.datetime, **fields: Any) -> Game:
    """A verified-looking game and its log, without replaying any (the lists read only the
    rows): the log's digest made of `number`; `fields` set the game's own (a 2-player Deep
    Vents game of the upload's source unless they say otherwise)."""
    game_type = fields.setdefault("game_type", "deep-vents")
    log = GameLog.objects.create(
        upload=upload,
        raw="{}",
        sha256=f"{number:064x}",
        game_type=game_type,
        status=GameLog.Status.VERIFIED,
    )
    defaults = {
        "ruleset": "starting-bid",
        "edition": "first",
        "player_count": 2,
        "source": upload.source,
    }
    return Game.objects.create(log=log, played_at=played_at, **{**defaults, **fields})


def text(log: dict[str, Any]) -> str:
    return dumps(log)


def queued_human_log(seed: int, names: tuple[str, ...]) -> int:
    """The id of a human log between these names stored queued (not verified), in an
    upload of its own."""
    raw = text(human_log(seed=seed, names=names))
    return GameLog.objects.create(
        upload=Upload.objects.create(),
        raw=raw,
        sha256=GameLog.digest(raw),
        game_type=json.loads(raw)["game"],
    ).pk


def jsonl(*logs: dict[str, Any] | str | bytes) -> bytes:
    """A JSON Lines batch; strings and bytes go in as they are (bad lines)."""
    lines = []
    for log in logs:
        if isinstance(log, dict):
            log = json.dumps(log)
        lines.append(log if isinstance(log, bytes) else log.encode())
    return b"".join(line + b"\n" for line in lines)


@pytest.fixture
def submit(django_capture_on_commit_callbacks):
    """submit_log, with the queued verification run (eagerly) as the submission commits."""

    def submit_and_verify(raw: str | bytes, **kwargs: Any) -> GameLog:
        kwargs.setdefault("user", None)
        kwargs.setdefault("source", Source.HUMAN)
        with django_capture_on_commit_callbacks(execute=True):
            stored = submit_log(raw, **kwargs)
        duplicate = stored.duplicate
        stored.refresh_from_db()
        stored.duplicate = duplicate
        return stored

    return submit_and_verify


@pytest.fixture
def submit_lines(django_capture_on_commit_callbacks):
    """submit_batch over JSON Lines bytes, verification run as each group commits."""

    def submit_and_verify(data: bytes, **kwargs: Any) -> Upload:
        kwargs.setdefault("user", None)
        kwargs.setdefault("source", Source.HUMAN)
        with django_capture_on_commit_callbacks(execute=True):
            upload = submit_batch(iter(data.splitlines(keepends=True)), **kwargs)
        upload.refresh_from_db()
        return upload

    return submit_and_verify
