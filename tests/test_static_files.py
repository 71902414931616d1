"""plotly.js is served from the plotly package's own copy, through Django's static files."""

from pathlib import Path

import plotly
import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.template.loader import render_to_string

PACKAGE_PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def test_plotly_js_is_found_in_the_plotly_package():
    assert Path(finders.find("plotly/plotly.min.js")) == PACKAGE_PLOTLY_JS


def test_only_plotly_js_is_taken_from_the_plotly_package():
    assert finders.find("plotly/widgetbundle.js") is None


def test_plotly_include_loads_the_local_copy():
    html = render_to_string("includes/plotly.html")

    assert 'src="/static/plotly/plotly.min.js"' in html


def test_collectstatic_gathers_plotly_site_css_and_admin_files(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

    call_command("collectstatic", interactive=False, verbosity=0)

    assert (tmp_path / "plotly" / "plotly.min.js").read_bytes() == PACKAGE_PLOTLY_JS.read_bytes()
    assert (tmp_path / "tournaments" / "site.css").exists()
    assert (tmp_path / "admin" / "css" / "base.css").exists()
    assert (tmp_path / "staticfiles.json").exists()


@pytest.mark.django_db
def test_plotly_js_is_served_by_the_web_process(client):
    response = client.get("/static/plotly/plotly.min.js")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PACKAGE_PLOTLY_JS.read_bytes()


def test_pico_css_comes_from_the_npm_package_pinned_in_the_lock_file():
    import json

    project = Path(__file__).resolve().parent.parent
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
