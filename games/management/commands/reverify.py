"""`manage.py reverify --all`: replay stored logs with the current engines, report changes."""

from django.core.management.base import BaseCommand, CommandError

from games.models import GameLog
from games.services.reverification import REVERIFIABLE, reverify_log


class Command(BaseCommand):
    help = (
        "Replay verified and rejected logs with the current engines; record and report every "
        "log whose verdict or scores changed (games that no longer verify are retracted)."
    )

    def add_arguments(self, parser):
        parser.add_argument("log_ids", nargs="*", type=int, help="Logs to replay.")
        parser.add_argument("--all", action="store_true", help="Every verified or rejected log.")
        parser.add_argument("--game", help="Only logs of this game id.")

    def handle(self, *args, log_ids, all, game, **options) -> None:
        if not log_ids and not all:
            raise CommandError("name log ids, or pass --all")
        logs = GameLog.objects.filter(status__in=REVERIFIABLE)
        if log_ids:
            logs = logs.filter(pk__in=log_ids)
        if game:
            logs = logs.filter(game_type=game)
        checked = changed = 0
        for log_id in logs.order_by("pk").values_list("pk", flat=True).iterator():
            checked += 1
            change = reverify_log(log_id)
            if change is None:
                continue
            changed += 1
            detail = change.error["text"] if change.error else f"scores {change.new_scores}"
            self.stdout.write(
                f"log {log_id}: {change.old_status} -> {change.new_status} "
                f"(was {change.old_scores}); {detail}"
            )
        self.stdout.write(f"{checked} logs replayed, {changed} changed.")
