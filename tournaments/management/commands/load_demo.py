"""Fill an empty site with demo data. Safe to run again: it updates rather than duplicates."""

import os
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from confirmations import demo as confirmations_demo
from games import demo as games_demo
from stats import demo as stats_demo
from tournaments import demo

ADMIN_USERNAME = "admin"
DEVELOPMENT_ADMIN_PASSWORD = "deepsea-demo"


def demo_admin_password() -> str:
    """DEMO_ADMIN_PASSWORD if set; a fixed one in development; a random one otherwise, so a
    production-configured site never gets a guessable admin password."""
    if password := os.getenv("DEMO_ADMIN_PASSWORD"):
        return password
    return DEVELOPMENT_ADMIN_PASSWORD if settings.DEBUG else secrets.token_urlsafe(16)


class Command(BaseCommand):
    help = "Load demo data: an admin, players, a finished tournament, verified games. Idempotent."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        password = demo_admin_password()
        admin, _ = get_user_model().objects.get_or_create(
            username=ADMIN_USERNAME, defaults={"email": "admin@example.com"}
        )
        admin.is_staff = admin.is_superuser = admin.is_active = True
        admin.set_password(password)
        admin.save()

        demo.load(self.stdout)
        stats_demo.load(self.stdout)
        games_demo.load(self.stdout)
        confirmations_demo.load(self.stdout, password)
        self.stdout.write(
            self.style.SUCCESS(
                f"Admin login: /admin/  username: {ADMIN_USERNAME}  password: {password}"
            )
        )
