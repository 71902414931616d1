"""Fill an empty site with demo data. Safe to run again: it updates rather than duplicates."""

import os
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Count

from analysis import demo as analysis_demo
from confirmations import demo as confirmations_demo
from games import demo as games_demo
from games.models import GameLog
from stats import demo as stats_demo
from tournaments import demo

ADMIN_USERNAME = "admin"
WAITING = (GameLog.Status.QUEUED, GameLog.Status.VERIFYING)
DEVELOPMENT_ADMIN_PASSWORD = "deepsea-demo"


def demo_admin_password() -> str:
    """DEMO_ADMIN_PASSWORD if set; a fixed one in development; a random one otherwise, so a
    production-configured site never gets a guessable admin password."""
    if password := os.getenv("DEMO_ADMIN_PASSWORD"):
        return password
    return DEVELOPMENT_ADMIN_PASSWORD if settings.DEBUG else secrets.token_urlsafe(16)


class Command(BaseCommand):
    help = (
        "Load demo data: an admin, players, a finished tournament, verified games, one "
        "analysed. Idempotent."
    )

    def handle(self, *args, **options) -> None:
        with transaction.atomic():
            password = self.load()
        # The demo's games are verified once the transaction commits: here with no broker,
        # else by the worker.
        self.report_games()
        self.stdout.write(
            self.style.SUCCESS(
                f"Admin login: /admin/  username: {ADMIN_USERNAME}  password: {password}"
            )
        )

    def load(self) -> str:
        password = demo_admin_password()
        admin, _ = get_user_model().objects.get_or_create(
            username=ADMIN_USERNAME, defaults={"email": "admin@example.com"}
        )
        admin.is_staff = admin.is_superuser = admin.is_active = True
        admin.set_password(password)
        admin.save()

        demo.load(self.stdout)
        analysis_demo.load(demo.final_table_log(), self.stdout)
        stats_demo.load(self.stdout)
        games_demo.load(self.stdout)
        confirmations_demo.load(self.stdout, password)
        return password

    def report_games(self) -> None:
        counts = dict(GameLog.objects.values_list("status").annotate(n=Count("pk")))
        waiting = sum(counts.get(status, 0) for status in WAITING)
        line = f"Games: {counts.get(GameLog.Status.VERIFIED, 0)} verified"
        if waiting:
            line += f", {waiting} queued: the worker verifies them (progress on /uploads/)"
        self.stdout.write(line + ".")
