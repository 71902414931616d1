"""Fixtures of the api tests: Django, services and the browser (django_fixtures.py)."""

from django_fixtures import *  # noqa: F403
