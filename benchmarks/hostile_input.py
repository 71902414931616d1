"""Hostile-input run: sends every request of tests/hostile_requests.py (well over 500 distinct
malformed requests over every route of the site: NUL bytes, huge and fractional ids, invalid
dates, arrays, broken JSON and multipart bodies, duplicate keys, unhashable game ids, odd
methods and headers) through the Django test client, signed in as staff and anonymously,
and prints how many answers fell in each status class. Any 5xx is listed and makes the
exit status 1.

    .venv/bin/python benchmarks/hostile_input.py      # SQLite, a throwaway test database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea .venv/bin/python \
        benchmarks/hostile_input.py                   # PostgreSQL (test_deepsea, dropped after)
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")


def main() -> int:
    import django

    django.setup()
    from django.test.runner import DiscoverRunner
    from django.test.utils import setup_test_environment

    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    databases = runner.setup_databases()
    try:
        return run()
    finally:
        runner.teardown_databases(databases)


def run() -> int:
    from django.contrib.auth.models import User
    from django.test import Client
    from games_support import human_log, text
    from hostile_requests import hostile_requests, route_templates

    from games.services.intake import submit_log
    from games.services.verification import verify_log

    verify_log(submit_log(text(human_log(seed=900)), user=None).pk)
    staff = Client(raise_request_exception=False)
    staff.force_login(User.objects.create_user("hostile", is_staff=True))
    anonymous = Client(raise_request_exception=False)
    requests = list(dict.fromkeys(hostile_requests()))
    classes: Counter[str] = Counter()
    server_errors = []
    started = time.perf_counter()
    for client in (staff, anonymous):
        for request in requests:
            status = request.send(client).status_code
            classes[f"{status // 100}xx"] += 1
            if status >= 500:
                server_errors.append((status, request.method, request.url[:120]))
    elapsed = time.perf_counter() - started
    print(f"routes: {len(route_templates())}")
    print(f"distinct malformed requests: {len(requests)} (each sent signed in and anonymously)")
    print(f"requests sent: {sum(classes.values())} in {elapsed:.1f} s")
    for name in sorted(classes):
        print(f"  {name}: {classes[name]}")
    print(f"5xx: {len(server_errors)}")
    for status, method, url in server_errors[:40]:
        print(f"  {status} {method} {url}")
    return 1 if server_errors else 0


if __name__ == "__main__":
    sys.exit(main())
