"""The engine tests: pure Python, as engines/ is. This folder loads no Django fixtures and no
browser (its siblings load them from tests/django_fixtures.py); `pytest -p no:django
tests/engines` runs it without Django at all.

Helpers this folder's tests share sit beside them as modules (imported by name, as pytest
puts this folder on the path): log_corruption.py, the corrupted copies of a log that the
replay loop's fast paths are compared on."""
