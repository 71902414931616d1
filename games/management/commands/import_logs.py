"""`manage.py import_logs FILE...`: queue log files as uploads (.jsonl = batch, else one log)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import Source
from games.services.intake import IntakeError, submit_batch, submit_log


class Command(BaseCommand):
    help = "Queue game log files for verification: .jsonl files as batches, others as one log."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--user", help="Username the uploads belong to.")
        parser.add_argument("--private", action="store_true", help="Do not publish them.")
        parser.add_argument(
            "--source", choices=[Source.HUMAN, Source.SIMULATED], default=Source.HUMAN
        )

    def handle(self, *args, files, user, private, source, **options) -> None:
        owner = None
        if user:
            owner = get_user_model().objects.filter(username=user).first()
            if owner is None:
                raise CommandError(f"no user {user!r}")
        common = {"user": owner, "source": source, "published": not private}
        failed = 0
        for path in files:
            try:
                failed += self.import_file(path, common)
            except OSError as error:
                raise CommandError(f"{path}: {error.strerror}") from None
        if failed:
            raise CommandError(f"{failed} file(s) or line(s) refused")

    def import_file(self, path: Path, common: dict) -> int:
        """Queue one file; returns how many files or lines were refused."""
        with path.open("rb") as stream:
            try:
                if path.suffix in {".jsonl", ".ndjson"}:
                    upload = submit_batch(stream, filename=path.name, **common)
                    stored = upload.logs.count()
                    self.stdout.write(
                        f"{path}: upload {upload.pk}, {stored} logs queued, "
                        f"{len(upload.duplicates)} already stored, "
                        f"{len(upload.line_errors)} bad lines"
                    )
                    for bad in upload.line_errors:
                        self.stderr.write(f"{path}:{bad['line']}: {bad['error']}")
                    return len(upload.line_errors)
                log = submit_log(stream.read(), filename=path.name, **common)
            except IntakeError as error:
                self.stderr.write(f"{path}: {error.message}")
                return 1
        state = "already stored as" if log.duplicate else "queued as"
        self.stdout.write(f"{path}: {state} log {log.pk}")
        return 0
