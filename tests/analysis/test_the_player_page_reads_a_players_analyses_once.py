"""A player's page reads which of their games have a current analysis once, for both the
accuracy chart and the costs table (issue 25: each read it again, a query joining four
tables), and both still show what the analyses say."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from games_support import submit  # noqa: F401 (a fixture)

from analysis.services.summary import current_analyses, player_accuracy, player_costs
from tests.analysis.test_a_players_accuracy_is_charted_over_time import TINY, analysed_game


def current_analyses_reads(queries: CaptureQueriesContext) -> int:
    """The queries asking for the player's done, current analyses (current_analyses)."""
    return sum('FROM "analysis_analysis"' in q["sql"] and '"stale"' in q["sql"] for q in queries)


@pytest.mark.django_db
def test_the_player_page_reads_the_current_analyses_once(
    client,
    submit,  # noqa: F811 (the fixture imported above)
    settings,
    django_capture_on_commit_callbacks,
):
    settings.ANALYSIS_BUDGET = TINY.to_json()
    stored = analysed_game(submit, django_capture_on_commit_callbacks, 5, "2026-11-20T19:00:00")
    player = stored.game.seats.get(seat=1).player

    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/players/{player.handle}/").content.decode()

    assert current_analyses_reads(queries) == 1
    current = current_analyses(player)
    assert player_accuracy(player, current) == player_accuracy(player) != []
    assert player_costs(player, current) == player_costs(player) != []
    assert 'id="accuracy-by-game"' in page
