"""WSGI entry point (gunicorn deepsea.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")

application = get_wsgi_application()
