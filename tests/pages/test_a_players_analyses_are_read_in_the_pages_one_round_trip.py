"""A player's page reads the analyses of the player's seats (its analysis section's query,
analysis.services.summary.seated_analyses_reading) with its other queries of the player, in
its one round trip on PostgreSQL (pages.services.profiles.page_rows): the section shows from
those rows what it shows reading them itself (issue 25: its query was a round trip of its
own). Elsewhere the section reads them alone, as before."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from analysis.services.summary import SEATED_ANALYSES
from analysis.templatetags.analysis_tags import player_decision_costs
from pages.services import profiles
from tests.analysis.test_a_players_decision_costs_are_read_in_one_query_compiled_once import (
    ann,  # noqa: F401 (a fixture: Ann's analysed games)
)

pytestmark = pytest.mark.django_db


def analysis_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "analysis_analysis"' in q["sql"]]


def test_the_analysis_section_shows_from_the_pages_rows_what_it_shows_reading_them_itself(
    ann,  # noqa: F811 (the fixture imported above)
):
    fetched = profiles.page_rows(ann["player"], None)

    from_the_page = player_decision_costs(ann["player"], fetched.get(SEATED_ANALYSES))

    assert from_the_page == player_decision_costs(ann["player"])
    assert from_the_page["rows"] == ann["rows"]
    assert from_the_page["games"] == ann["games"]


def test_the_player_page_sends_the_analyses_query_in_its_one_round_trip(
    ann,  # noqa: F811 (the fixture imported above)
    client,
    postgresql,
):
    url = f"/players/{ann['player'].handle}/"
    client.get(url)  # the queries compiled

    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()

    (statement,) = analysis_queries(queries)
    assert '"ratings_rating"' in statement  # the page's statement of its player's queries
    assert 'id="accuracy-history"' in page


def test_a_page_whose_rows_were_not_read_together_reads_the_analyses_itself(
    ann,  # noqa: F811 (the fixture imported above)
    client,
    monkeypatch,
):
    url = f"/players/{ann['player'].handle}/"
    together = client.get(url).content.decode()
    monkeypatch.setattr(profiles, "page_rows", lambda player, page: {})

    with CaptureQueriesContext(connection) as queries:
        alone = client.get(url).content.decode()

    assert len(analysis_queries(queries)) == 1
    assert alone.replace(nonce(alone), "") == together.replace(nonce(together), "")
    assert 'id="accuracy-history"' in alone


def nonce(page: str) -> str:
    """The page's CSP nonce (new on every request)."""
    return page.split('nonce="', 1)[1].split('"', 1)[0]
