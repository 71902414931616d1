"""The front-end libraries come from the npm packages pinned in package-lock.json and are
served through Django's static files: plotly.js's cartesian partial bundle, at the version of
the plotly Python package's own plotly.js (which builds the figures), and Pico CSS."""

import json
import re
from pathlib import Path

import plotly
import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.template.loader import render_to_string

PROJECT = Path(__file__).resolve().parents[2]
BUNDLE = PROJECT / "node_modules/plotly.js-cartesian-dist-min/plotly-cartesian.min.js"
PYTHON_PACKAGE_PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def plotly_js_version(path: Path) -> str:
    """The version in a plotly.js build's banner ("plotly.js (cartesian - minified) v4.1.1")."""
    return re.search(r"plotly\.js (?:\([^)]*\) )?v(\d+\.\d+\.\d+)", path.read_text()[:500]).group(1)


def test_the_plotly_bundle_is_the_npm_package_pinned_in_the_lock_file():
    lock = json.loads((PROJECT / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/plotly.js-cartesian-dist-min"]["version"]

    assert plotly_js_version(BUNDLE) == pinned
    assert Path(finders.find("plotly/plotly-cartesian.min.js")) == BUNDLE


def test_the_plotly_bundle_matches_the_plotly_js_the_python_figures_are_built_for():
    assert plotly_js_version(BUNDLE) == plotly_js_version(PYTHON_PACKAGE_PLOTLY_JS)


def test_the_plotly_bundle_is_a_third_of_the_full_library():
    assert BUNDLE.stat().st_size < PYTHON_PACKAGE_PLOTLY_JS.stat().st_size / 3


def test_plotly_include_fetches_the_local_bundle_only_when_a_chart_is_drawn():
    html = render_to_string("includes/plotly.html")

    assert 'data-plotly-src="/static/plotly/plotly-cartesian.min.js" defer>' in html
    assert '<script src="/static/plotly' not in html
    assert "plotly.min.js" not in html


def test_collectstatic_gathers_compressed_plotly_site_css_and_admin_files(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

    call_command("collectstatic", interactive=False, verbosity=0)

    assert (tmp_path / "plotly" / "plotly-cartesian.min.js").read_bytes() == BUNDLE.read_bytes()
    assert (tmp_path / "plotly" / "plotly-cartesian.min.js.gz").exists()
    assert (tmp_path / "tournaments" / "site.css").exists()
    assert (tmp_path / "admin" / "css" / "base.css").exists()
    assert (tmp_path / "staticfiles.json").exists()


@pytest.mark.django_db
def test_plotly_js_is_served_by_the_web_process(client):
    response = client.get("/static/plotly/plotly-cartesian.min.js")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == BUNDLE.read_bytes()


def test_pico_css_comes_from_the_npm_package_pinned_in_the_lock_file():
    project = PROJECT
    lock = json.loads((project / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/@picocss/pico"]["version"]
    installed = json.loads((project / "node_modules/@picocss/pico/package.json").read_text())[
        "version"
    ]

    assert installed == pinned
    assert Path(finders.find("pico/pico.min.css")) == (
        project / "node_modules/@picocss/pico/css/pico.min.css"
    )


@pytest.mark.django_db
def test_every_page_loads_pico_and_the_site_script_from_static_files(client):
    page = client.get("/").content.decode()

    assert 'href="/static/pico/pico.min.css"' in page
    assert 'src="/static/site/site.js"' in page
