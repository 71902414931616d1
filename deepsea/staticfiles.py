"""Serves the plotly.js bundled with the plotly Python package as static/plotly/plotly.min.js.

Using the package's own copy keeps the browser library at the version the Python figures are
built for, and keeps pages working without any CDN.
"""

from importlib.util import find_spec
from pathlib import Path

from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import Error
from django.core.files.storage import FileSystemStorage

PLOTLY_FILE = "plotly.min.js"
PLOTLY_PREFIX = "plotly"
PLOTLY_STATIC_PATH = f"{PLOTLY_PREFIX}/{PLOTLY_FILE}"


def plotly_package_data() -> Path:
    """The directory where the plotly package keeps its plotly.min.js."""
    spec = find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the plotly package is not installed")
    return Path(spec.submodule_search_locations[0]) / "package_data"


class PlotlyFinder(BaseFinder):
    """A static files finder for exactly one file: plotly/plotly.min.js."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=plotly_package_data())
        self.storage.prefix = PLOTLY_PREFIX

    def check(self, **kwargs) -> list[Error]:
        if not self.storage.exists(PLOTLY_FILE):
            return [Error(f"{self.storage.path(PLOTLY_FILE)} is missing", id="deepsea.E001")]
        return []

    def find(self, path: str, find_all: bool = False) -> str | list[str]:
        # No match is [], as Django's own finders answer, so finders.find() tries the next.
        if path != PLOTLY_STATIC_PATH:
            return []
        match = self.storage.path(PLOTLY_FILE)
        return [match] if find_all else match

    def list(self, ignore_patterns):
        yield PLOTLY_FILE, self.storage
