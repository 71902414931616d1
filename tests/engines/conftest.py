"""The engine tests: pure Python, as engines/ is. This folder loads no Django fixtures and no
browser (its siblings load them from tests/django_fixtures.py); `pytest -p no:django
tests/engines` runs it without Django at all."""
