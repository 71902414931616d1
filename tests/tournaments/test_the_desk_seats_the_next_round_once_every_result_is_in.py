"""The desk's "Seat round N" stays disabled, its reason beside it, while a table of the round
before has no result; posted anyway, the server refuses with the same reason (409); the desk's
live part brings the button back enabled as the last result comes in."""

from __future__ import annotations

import re

import pytest
from tournament_day_support import PLAYERS, tournament_day

from tournaments.models import Registration
from tournaments.services.seating import seat_next_round

pytestmark = pytest.mark.django_db
SEAT_BUTTON = re.compile(r'<button type="submit" id="seat-round"[^>]*>')


@pytest.fixture
def round_one_playing():
    harbour = tournament_day()
    for name in PLAYERS:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    seat_next_round(harbour.tournament)
    return harbour


def enter_results(harbour, tables) -> None:
    client = harbour.client(harbour.organiser)
    for table in tables:
        places = {f"place_{s.pk}": str(i) for i, s in enumerate(table.seats.all(), 1)}
        assert client.post(harbour.url(f"desk/table/{table.pk}/"), places).status_code == 302


def test_seat_round_2_is_disabled_with_its_reason_while_round_1_has_tables_without_a_result(
    round_one_playing,
):
    desk = round_one_playing.client(round_one_playing.organiser).get(round_one_playing.url("desk/"))

    page = desk.content.decode()
    button = SEAT_BUTTON.search(page).group(0)
    assert " disabled" in button and 'aria-describedby="seat-refusal"' in button
    assert "Seat round 2" in page
    assert (
        '<small class="note" id="seat-refusal">'
        "Not yet: round 1 still has no result at table(s) 1, 2.</small>"
    ) in page


def test_seating_round_2_posted_anyway_is_refused_with_the_tables_still_playing(
    round_one_playing,
):
    first_table = round_one_playing.tournament.rounds.get().tables.order_by("number").first()
    enter_results(round_one_playing, [first_table])

    refused = round_one_playing.client(round_one_playing.organiser).post(
        round_one_playing.url("desk/seat/")
    )

    assert refused.status_code == 409
    assert "Round 2 is not seated: round 1 still has no result at table(s) 2" in (
        refused.content.decode()
    )
    assert round_one_playing.tournament.rounds.count() == 1


def test_the_live_desk_enables_seat_round_2_once_the_last_result_is_in(round_one_playing):
    client = round_one_playing.client(round_one_playing.organiser)
    before = client.get(round_one_playing.url("desk/live/")).content.decode()
    enter_results(round_one_playing, round_one_playing.tournament.rounds.get().tables.all())

    after = client.get(round_one_playing.url("desk/live/")).content.decode()

    assert 'id="seat-form" hx-swap-oob="true"' in before
    assert " disabled" in SEAT_BUTTON.search(before).group(0)
    assert SEAT_BUTTON.search(after).group(0) == '<button type="submit" id="seat-round">'
    assert "seat-refusal" not in after
    seated = client.post(round_one_playing.url("desk/seat/"))
    assert seated.status_code == 302
    assert round_one_playing.tournament.rounds.count() == 2
