"""The desk's "Seat round N" stays disabled, its reason beside it, while a table of the round
before has no result; posted anyway, the server refuses with the same reason (409); the desk's
live part brings the button back enabled as the last result comes in."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db
SEAT_BUTTON = re.compile(r'<button type="submit" id="seat-round"[^>]*>')


def enter_results(harbour, tables) -> None:
    client = harbour.client(harbour.organiser)
    for table in tables:
        places = {f"place_{s.pk}": str(i) for i, s in enumerate(table.seats.all(), 1)}
        assert client.post(harbour.url(f"desk/table/{table.pk}/"), places).status_code == 302


def test_seat_round_2_is_disabled_with_its_reason_while_round_1_has_tables_without_a_result(
    seated,
):
    desk = seated.client(seated.organiser).get(seated.url("desk/"))

    page = desk.content.decode()
    button = SEAT_BUTTON.search(page).group(0)
    assert " disabled" in button and 'aria-describedby="seat-refusal"' in button
    assert "Seat round 2" in page
    assert (
        '<small class="note" id="seat-refusal">'
        "Not yet: round 1 still has no result at table(s) 1, 2.</small>"
    ) in page


def test_seating_round_2_posted_anyway_is_refused_with_the_tables_still_playing(
    seated,
):
    first_table = seated.tournament.rounds.get().tables.order_by("number").first()
    enter_results(seated, [first_table])

    refused = seated.client(seated.organiser).post(seated.url("desk/seat/"))

    assert refused.status_code == 409
    assert "Round 2 is not seated: round 1 still has no result at table(s) 2" in (
        refused.content.decode()
    )
    assert seated.tournament.rounds.count() == 1


def test_the_live_desk_enables_seat_round_2_once_the_last_result_is_in(seated):
    client = seated.client(seated.organiser)
    before = client.get(seated.url("desk/live/")).content.decode()
    enter_results(seated, seated.tournament.rounds.get().tables.all())

    after = client.get(seated.url("desk/live/")).content.decode()

    assert 'id="seat-form" hx-swap-oob="true"' in before
    assert " disabled" in SEAT_BUTTON.search(before).group(0)
    assert SEAT_BUTTON.search(after).group(0) == '<button type="submit" id="seat-round">'
    assert "seat-refusal" not in after
    seating = client.post(seated.url("desk/seat/"))
    assert seating.status_code == 302
    assert seated.tournament.rounds.count() == 2
