"""The Celery app. Its configuration is the CELERY_* part of deepsea/settings.py.

Tasks live in each app's tasks.py, take database ids (never model instances or payloads),
call a service function that does the work, and are queued with `delay_on_commit` so a
worker never looks for a row that is not committed yet.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")

app = Celery("deepsea")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
