"""Every page is served with a Content-Security-Policy without 'unsafe-inline', and its HTML
has nothing that policy would block: every inline <script> or <style> carries the request's
nonce, and no element has a style= or on...= attribute. (The browser test,
tests/browser/test_browser_content_security_policy.py, checks what scripts do once running.)"""

import re
from html.parser import HTMLParser

import pytest
from games_support import human_log, jsonl, submit, text

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


class InlineCode(HTMLParser):
    """What in a page needs 'unsafe-inline' unless it has the nonce."""

    def __init__(self, nonce: str | None) -> None:
        super().__init__()
        self.nonce = nonce
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name in attributes:
            if name == "style" or name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
        inline_script = tag == "script" and "src" not in attributes
        data_block = attributes.get("type", "").startswith("application/")
        needs_nonce = (inline_script and not data_block) or tag == "style"
        if needs_nonce and attributes.get("nonce") != self.nonce:
            self.problems.append(f"<{tag}> without the nonce")


@pytest.fixture
def pages(client, django_user_model, submit, django_capture_on_commit_callbacks):
    stored = submit(text(human_log(seed=600)))
    client.force_login(django_user_model.objects.create_user("csp", is_staff=True))
    with django_capture_on_commit_callbacks(execute=True):
        batch = client.post(
            "/api/uploads/", data=jsonl(human_log(seed=601)), content_type="application/jsonl"
        )
    handle = stored.game.seats.exclude(player=None).first().player.handle
    return [
        "/",
        "/leaderboards/",
        "/leaderboards/deep-dive/",
        f"/players/{handle}/",
        "/tournaments/",
        "/games/",
        f"/games/{stored.pk}/",
        "/stats/",
        "/stats/strategies/?game=deep-dive&min_sample=1",
        "/stats/hexes/?min_sample=1",
        "/stats/lab/",
        "/upload/",
        batch.json()["page"],
        "/record/",
        "/api/docs/",
        "/admin/",
        "/no-such-page/",
    ]


def test_every_page_has_a_strict_policy_and_no_inline_code_without_its_nonce(client, pages):
    problems = {}
    for url in pages:
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "'unsafe-inline'" not in policy
        assert "'unsafe-eval'" not in policy
        # Django names a nonce in the header only when the page used one.
        nonce = re.search(r"'nonce-([^']+)'", policy)
        parser = InlineCode(nonce[1] if nonce else None)
        parser.feed(response.content.decode())
        if parser.problems:
            problems[url] = parser.problems
    assert problems == {}


def test_charts_are_data_for_static_charts_js_not_inline_scripts(client, pages):
    page = client.get("/stats/strategies/?game=deep-dive&min_sample=1").content.decode()

    assert "data-plotly-figure=" in page
    assert "Plotly.newPlot" not in page
    assert "/static/charts.js" in page
