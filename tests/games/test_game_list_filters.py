"""The games list: filters read as words, with a label for every input."""

import re

import pytest

pytestmark = pytest.mark.django_db


def test_every_filter_has_a_plain_label_and_no_placeholder_dashes(client):
    html = client.get("/games/").content.decode()
    for broken in ("[invalid name]", "Log table round tournament", "---------"):
        assert broken not in html
    for label in ("Game", "Player", "Tournament", "Source", "Played from", "Played until"):
        assert f">{label}" in html
    assert '<option value="" selected>Any game</option>' in html
    assert '<option value="deep-vents">Deep Vents</option>' in html


def test_every_filter_input_has_a_label_pointing_at_it(client):
    html = client.get("/games/").content.decode()
    form = html[html.index('<form method="get" class="filters"') : html.index("</form>")]
    ids = re.findall(r'<(?:input|select)[^>]*\bid="([^"]+)"', form)
    labelled = set(re.findall(r'<label for="([^"]+)"', form))
    assert ids and set(ids) <= labelled
