"""A game named as its players know it, never by a database id: the game, the day, and
where it was played ("Deep Vents, 28 Nov 2026: Club Night · round 1 · table 2"), or who
played it when it was played at no tournament table ("Deep Vents, 3 Dec 2026: Marina,
Nemo, Coral")."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import dateformat, timezone

from engines.registry import title_of
from games.models import Game, GameLog
from games.services.table_desk import table_desk

# What became of a log that made no game, as its page's name ends.
_FATE = {
    "queued": "waiting to be checked",
    "verifying": "being checked",
    "rejected": "rejected",
    "error": "could not be checked",
}


def game_name(game: Game) -> str:
    """The game's name for pages, notices and e-mails. No query beyond its seats, when the
    game was read with select_related("log__table__round__tournament") and its seats
    prefetched; the tournament comes through the table desk (games knows no tournaments)."""
    day = dateformat.format(timezone.localtime(game.played_at), "j M Y")
    place = table_desk().place_of(game.log)
    where = str(place) if place else ", ".join(seat.name for seat in game.seats.all())
    return f"{title_of(game.game_type)}, {day}: {where}"


def log_name(log: GameLog) -> str:
    """The name of a log that made no game (rejected, or still waiting for a worker), from
    what the log knows: "Deep Vents game uploaded 3 Dec 2026 by Marina, club.jsonl line 4
    (rejected)". Who uploaded it is named as they play (their player's name), else by their
    username; no query beyond the upload and its submitter's player when read with
    select_related("upload__submitted_by__player")."""
    upload = log.upload
    day = dateformat.format(timezone.localtime(upload.created), "j M Y")
    name = f"{title_of(log.game_type)} game uploaded {day}"
    user = upload.submitted_by
    if user is not None:
        player = getattr(user, "player", None)  # a user without a name raises AttributeError
        name += f" by {player.display_name if player else user.get_username()}"
    if upload.filename:
        name += f", {upload.filename}"
        if log.line is not None:
            name += f" line {log.line}"
    fate = _FATE.get(log.status)
    return f"{name} ({fate})" if fate else name


def stored_log_name(log: GameLog) -> str:
    """The name of a stored log, read afresh: its game's name if it made one, else the log's
    own (log_name). For a message about one log (a few queries), never for a list."""
    game = (
        Game.objects.filter(log=log)
        .select_related("log__table__round__tournament")
        .prefetch_related("seats")
        .first()
    )
    return game_name(game) if game else log_name(log)


def names_of_logs(log_ids: Iterable[int]) -> dict[int, str]:
    """Each log's name as stored_log_name gives it, for a list: three queries however many
    logs (the games with their tables and seats, then the logs that made none)."""
    wanted = set(log_ids)
    games = (
        Game.objects.filter(log_id__in=wanted)
        .select_related("log__table__round__tournament")
        .defer("log__raw")
        .prefetch_related("seats")
    )
    names = {game.log_id: game_name(game) for game in games}
    others = (
        GameLog.objects.filter(pk__in=wanted - names.keys())
        .select_related("upload__submitted_by__player")
        .defer("raw")
    )
    names.update((log.pk, log_name(log)) for log in others)
    return names
