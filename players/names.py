"""Player names: how a name written in a log finds its Player, created on first sight."""

from __future__ import annotations

from django.utils.text import slugify

from players.models import Player

HANDLE_LENGTH = Player._meta.get_field("handle").max_length


def player_handle(name: str) -> str:
    """The Player handle a log name maps to: its slug (names without latin letters keep a
    unicode slug, so two such players do not collapse into one)."""
    handle = slugify(name) or slugify(name, allow_unicode=True) or "player"
    return handle[:HANDLE_LENGTH].strip("-") or "player"


def players_for(names: list[str]) -> dict[str, Player]:
    """The Player for each log name, created on first sight. Concurrent creators meet the
    unique handle: the loser's insert is skipped and the winner's row read back."""
    handles = {name: player_handle(name) for name in names}
    wanted = set(handles.values())
    known = {p.handle: p for p in Player.objects.filter(handle__in=wanted)}
    missing = {handle: name for name, handle in handles.items() if handle not in known}
    if missing:
        Player.objects.bulk_create(
            [
                Player(handle=handle, display_name=name.strip()[:100] or name)
                for handle, name in missing.items()
            ],
            ignore_conflicts=True,
        )
        known.update((p.handle, p) for p in Player.objects.filter(handle__in=missing))
    return {name: known[handle] for name, handle in handles.items()}


def log_name(player: Player) -> str:
    """The name to write in a log for this player: one that maps back to them."""
    if player_handle(player.display_name) == player.handle:
        return player.display_name
    return player.handle
