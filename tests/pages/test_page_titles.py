"""Page titles read as words and name the site once: base.html adds " · Deep-sea
tournaments" after every page's own title block, so no page repeats it."""

import re
from pathlib import Path

import pytest
from django.conf import settings

SITE = "Deep-sea tournaments"
TEMPLATES = Path(settings.BASE_DIR) / "templates"


def page_templates() -> list[Path]:
    return [
        path
        for path in sorted(TEMPLATES.rglob("*.html"))
        if re.search(r'{% extends "(base|allauth/layouts/base)\.html" %}', path.read_text())
    ]


@pytest.mark.parametrize("path", page_templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_page_template_repeats_the_site_name_in_its_title(path):
    blocks = re.findall(r"{% block title %}(.*?){% endblock %}", path.read_text(), re.S)
    assert all(SITE not in block for block in blocks), blocks


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/stats/hexes/", "/leaderboards/"])
def test_a_page_title_names_the_site_once(client, url):
    title = re.search(r"<title>(.*?)</title>", client.get(url).content.decode(), re.S)[1]
    assert title.count(SITE) == 1, title
    assert title.endswith(f" · {SITE}")
