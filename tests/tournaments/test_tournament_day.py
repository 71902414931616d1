"""The tournament day through the site's pages: the organiser registers a pasted list
(new names created, look-alikes asked about), players register, check in and drop as
themselves, only checked-in players are seated, the timer counts, results are edited and
undone with their history kept, table sheets carry a QR code per table, calendars list the
rounds."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import timezone
from tournament_day_support import (
    PLAYERS,
    table_log,
    tournament_day,
)

from confirmations.models import Review
from games.models import GameLog, RecordingDraft
from notices.models import Kind, Notice
from players.models import Player
from tournaments.models import Registration, ResultChange, TableSeat, Tournament
from tournaments.services import day
from tournaments.services.seating import seat_next_round
from tournaments.services.standings import tournament_standings
from tournaments.services.table_states import DONE, PENDING, RECORDING, WAITING

pytestmark = pytest.mark.django_db


@pytest.fixture
def harbour():
    return tournament_day()


def seated_handles(round_) -> set[str]:
    return set(
        TableSeat.objects.filter(table__round=round_).values_list("player__handle", flat=True)
    )


def check_everyone_in(harbour, names=PLAYERS) -> None:
    for name in names:
        registration = Registration.objects.get(player=harbour.player(name))
        day.check_in(registration)


def test_a_pasted_list_registers_known_players_and_creates_the_new_names(harbour):
    names = "\n".join(["Marina Abyss", "  coral reefson ", "", "Brand New Diver", "Marina Abyss"])

    response = harbour.client(harbour.organiser).post(
        harbour.url("desk/register/"), {"names": names}
    )

    assert response.status_code == 302
    registered = set(
        harbour.tournament.registrations.values_list("player__display_name", flat=True)
    )
    assert registered == {"Marina Abyss", "Coral Reefson", "Brand New Diver"}
    assert Player.objects.filter(display_name="Brand New Diver").count() == 1


def test_a_name_that_only_looks_like_a_known_player_is_asked_about_and_typing_is_kept(harbour):
    names = "Zoe O Suilleabhain\nFresh Face"
    client = harbour.client(harbour.organiser)

    response = client.post(harbour.url("desk/register/"), {"names": names})

    assert response.status_code == 400
    page = response.content.decode()
    assert "Zoe O Suilleabhain" in page and "Fresh Face" in page  # the textarea kept
    assert "looks like a known player" in page
    assert "choose the known player, or someone new" in page
    assert not harbour.tournament.registrations.exists()
    assert not Player.objects.filter(display_name="Fresh Face").exists()

    zoe = harbour.player("Zoë Ó Súilleabháin")
    response = client.post(harbour.url("desk/register/"), {"names": names, "same_1": zoe.handle})

    assert response.status_code == 302
    registered = set(harbour.tournament.registrations.values_list("player__handle", flat=True))
    assert registered == {zoe.handle, Player.objects.get(display_name="Fresh Face").handle}
    assert not Player.objects.filter(display_name="Zoe O Suilleabhain").exists()


def test_a_pasted_name_the_site_refuses_names_the_line_and_registers_nobody(harbour):
    response = harbour.client(harbour.organiser).post(
        harbour.url("desk/register/"), {"names": "Marina Abyss\nbad\u200bname"}
    )

    assert response.status_code == 400
    assert "line 2: player name" in response.content.decode()
    assert "zero-width" in response.content.decode()
    assert not harbour.tournament.registrations.exists()


def test_players_register_themselves_only_while_registration_is_open(harbour):
    marina = harbour.client(harbour.players["Marina Abyss"])

    closed = marina.post(harbour.url("me/register/"))

    assert closed.status_code == 409
    assert "registration for Harbour Open is closed" in closed.content.decode()
    assert not harbour.tournament.registrations.exists()

    Tournament.objects.filter(pk=harbour.tournament.pk).update(registration_open=True)
    opened = marina.post(harbour.url("me/register/"))

    assert opened.status_code == 302
    assert harbour.tournament.registrations.get().player == harbour.player("Marina Abyss")


def test_before_round_one_my_page_lists_who_is_registered_and_when_it_starts(harbour):
    Tournament.objects.filter(pk=harbour.tournament.pk).update(registration_open=True)
    marina = harbour.client(harbour.players["Marina Abyss"])
    marina.post(harbour.url("me/register/"))

    page = marina.get(harbour.url("me/")).content.decode()
    starts = f"{harbour.tournament.rounds_planned} rounds from "
    starts += f"{harbour.tournament.starts_on:%a %-d %b %Y}"

    assert "Registered players (1)" in page and 'class="me">Marina Abyss</li>' in page
    assert "Points" not in page and "round \u2013 of" not in page
    assert starts in page


def test_before_anyone_registers_my_page_and_the_tournaments_page_list_nobody_alike(harbour):
    marina = harbour.client(harbour.players["Marina Abyss"])

    lists = [
        re.search(r'<ul id="registered-players"[^>]*>(.*?)</ul>', page, re.S).group(1)
        for page in (marina.get(harbour.url(tail)).content.decode() for tail in ("me/", ""))
    ]

    assert lists == ["<li>Nobody has registered yet.</li>"] * 2


def test_before_round_one_the_registered_players_are_listed_by_name(harbour):
    for name in reversed(sorted(harbour.players)):
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    marina = harbour.client(harbour.players["Marina Abyss"])

    listed = [
        re.findall(r'<li data-handle="([^"]+)"', page)
        for page in (marina.get(harbour.url(tail)).content.decode() for tail in ("me/", ""))
    ]

    by_name = sorted(harbour.players, key=lambda name: harbour.player(name).display_name)
    assert listed == [[harbour.player(name).handle for name in by_name]] * 2


def test_a_user_without_a_claimed_name_cannot_register(harbour, django_user_model):
    Tournament.objects.filter(pk=harbour.tournament.pk).update(registration_open=True)
    nameless = django_user_model.objects.create_user("nameless")

    response = harbour.client(nameless).post(harbour.url("me/register/"))

    assert response.status_code == 403
    assert "claim your player name first" in response.content.decode()
    assert not harbour.tournament.registrations.exists()


def test_only_checked_in_players_are_seated_when_the_tournament_asks_for_check_in(harbour):
    Tournament.objects.filter(pk=harbour.tournament.pk).update(check_in_required=True)
    for name in PLAYERS:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    arrived = PLAYERS[:6]
    for name in arrived:
        harbour.client(harbour.players[name]).post(harbour.url("me/check-in/"))

    round_ = seat_next_round(Tournament.objects.get(pk=harbour.tournament.pk))

    assert seated_handles(round_) == {harbour.player(name).handle for name in arrived}


def test_a_dropped_player_is_not_seated_in_the_next_round_and_keeps_their_results(harbour):
    for name in PLAYERS:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    first = seat_next_round(harbour.tournament)
    for table in first.tables.all():
        seats = list(table.seats.all())
        for rank, seat in enumerate(seats, 1):
            seat.hand_rank = rank
        TableSeat.objects.bulk_update(seats, ["hand_rank"])

    response = harbour.client(harbour.players["Pearl Diver"]).post(harbour.url("me/drop/"))
    second = seat_next_round(harbour.tournament)

    assert response.status_code == 302
    pearl = harbour.player("Pearl Diver")
    assert pearl.handle not in seated_handles(second)
    assert len(seated_handles(second)) == len(PLAYERS) - 1
    row = next(r for r in tournament_standings(harbour.tournament) if r.player_id == pearl.pk)
    assert row.dropped and row.tables == 1


def test_a_late_entry_is_refused_unless_the_organisers_take_late_entries(harbour):
    for name in PLAYERS[:6]:
        Registration.objects.create(tournament=harbour.tournament, player=harbour.player(name))
    Tournament.objects.filter(pk=harbour.tournament.pk).update(registration_open=True)
    seat_next_round(harbour.tournament)
    late = harbour.client(harbour.players[PLAYERS[7]])

    refused = late.post(harbour.url("me/register/"))

    assert refused.status_code == 409
    assert "round 1 is seated and the organisers take no late entries" in refused.content.decode()
    Tournament.objects.filter(pk=harbour.tournament.pk).update(late_entries_until_round=2)
    accepted = late.post(harbour.url("me/register/"))

    assert accepted.status_code == 302
    entry = Registration.objects.get(player=harbour.player(PLAYERS[7]))
    assert entry.joined_round == 2


def test_registration_settings_refuse_a_round_the_tournament_does_not_have(harbour):
    response = harbour.client(harbour.organiser).post(
        harbour.url("desk/settings/"),
        {"registration_open": "on", "late_entries_until_round": "9"},
    )

    assert response.status_code == 400
    assert "Harbour Open has rounds 1 to 3" in response.content.decode()
    harbour.tournament.refresh_from_db()
    assert not harbour.tournament.registration_open  # nothing saved


def test_seating_a_round_tells_each_seated_player_their_table_in_their_inbox(seated):
    round_ = seated.tournament.rounds.get()
    told = {
        notice.user.player.handle: notice.subject
        for notice in Notice.objects.filter(kind=Kind.SEATED).select_related("user__player")
    }

    expected = {
        seat.player.handle: f"You are seated at table {seat.table.number} "
        f"({seated.tournament.name}, round 1)"
        for seat in TableSeat.objects.filter(table__round=round_).select_related("player", "table")
        if seat.player.user_id is not None
    }
    assert expected
    assert told == expected


def test_the_timer_counts_down_from_the_minutes_the_organiser_gives(seated):
    response = seated.client(seated.organiser).post(seated.url("desk/timer/"), {"minutes": "45"})

    assert response.status_code == 302
    round_ = seated.tournament.rounds.get()
    assert round_.timer_minutes == 45
    assert 45 * 60 - 5 <= day.seconds_left(round_) <= 45 * 60
    me = seated.client(seated.players["Marina Abyss"]).get(seated.url("me/"))
    assert f'data-seconds-left="{day.seconds_left(round_)}"' in me.content.decode() or (
        'data-seconds-left="' in me.content.decode()
    )


def test_a_timer_of_no_minutes_is_refused_beside_the_field(seated):
    response = seated.client(seated.organiser).post(seated.url("desk/timer/"), {"minutes": "0"})

    assert response.status_code == 400
    assert 'id="minutes-error"' in response.content.decode()
    assert seated.tournament.rounds.get().timer_started_at is None


def test_my_page_shows_my_table_its_seats_in_order_the_opener_and_the_record_link(seated):
    marina = seated.player("Marina Abyss")
    seat = TableSeat.objects.select_related("table").get(player=marina)
    in_order = list(seat.table.seats.order_by("seat").select_related("player"))
    opener = next(s for s in in_order if s.opening_bidder)

    page = seated.client(seated.players["Marina Abyss"]).get(seated.url("me/")).content.decode()

    assert f"Round 1: table {seat.table.number}" in page
    positions = [page.index(s.player.display_name, page.index("day-seats")) for s in in_order]
    assert positions == sorted(positions)
    seats_list = page[page.index("day-seats") :]
    opener_item = seats_list[seats_list.index(opener.player.display_name) :][:120]
    assert "opens the bidding" in opener_item
    assert f'href="/record/?table={seat.table.pk}"' in page


def points_contradiction(table):
    seats = list(table.seats.order_by("seat"))
    data = {}
    for place, seat in enumerate(seats, 1):
        data[f"place_{seat.pk}"] = str(place)
        data[f"points_{seat.pk}"] = str(100 - 10 * place)
    data[f"points_{seats[0].pk}"] = "5"  # first place, fewest points
    return seats, data


def test_a_hand_result_whose_points_contradict_its_places_is_refused_naming_the_field(seated):
    table = seated.tournament.rounds.get().tables.first()
    seats, data = points_contradiction(table)

    response = seated.client(seated.organiser).post(seated.url(f"desk/table/{table.pk}/"), data)

    assert response.status_code == 400
    page = response.content.decode()
    # Second place scored 80 while first place scored 5: the field named is second's.
    assert f'id="points_{seats[1].pk}-error"' in page
    assert "80 points contradict place 2" in page
    assert "placed better (1) with fewer points (5)" in page
    assert 'value="5"' in page and 'value="80"' in page  # what was typed is kept
    assert not TableSeat.objects.filter(table=table, hand_rank__isnull=False).exists()
    assert not ResultChange.objects.exists()


def test_places_that_do_not_add_up_are_refused_beside_the_place(seated):
    table = seated.tournament.rounds.get().tables.first()
    seats = list(table.seats.order_by("seat"))
    data = {f"place_{seat.pk}": "1" for seat in seats}
    data[f"place_{seats[-1].pk}"] = "2"  # 1, 1, 1, 2: the last should be 4

    response = seated.client(seated.organiser).post(seated.url(f"desk/table/{table.pk}/"), data)

    assert response.status_code == 400
    assert f'id="place_{seats[-1].pk}-error"' in response.content.decode()
    assert "this one should be 4" in response.content.decode()


def test_a_result_edited_and_undone_keeps_its_history_and_moves_the_standings(seated):
    table = seated.tournament.rounds.get().tables.first()
    seats = list(table.seats.order_by("seat").select_related("player"))
    client = seated.client(seated.organiser)
    first = {f"place_{s.pk}": str(i) for i, s in enumerate(seats, 1)}
    reversed_places = {f"place_{s.pk}": str(len(seats) + 1 - i) for i, s in enumerate(seats, 1)}

    client.post(seated.url(f"desk/table/{table.pk}/"), first)
    client.post(seated.url(f"desk/table/{table.pk}/"), reversed_places)
    winner = seats[-1].player
    standings = tournament_standings(seated.tournament)
    assert standings[0].player == winner and standings[0].points == 3.0
    client.post(seated.url(f"desk/table/{table.pk}/undo/"))

    assert not TableSeat.objects.filter(table=table, hand_rank__isnull=False).exists()
    history = list(ResultChange.objects.filter(table=table).order_by("at", "pk"))
    assert [c.action for c in history] == ["entered", "edited", "undone"]
    assert all(c.by == seated.organiser for c in history)
    assert history[1].before["hand"][0] == [seats[0].player.handle, 1, None]
    assert history[1].after["hand"][0] == [seats[0].player.handle, len(seats), None]
    assert history[2].after == {}
    page = client.get(seated.url(f"desk/table/{table.pk}/")).content.decode()
    assert page.count("by olga") == 3
    assert all(r.points == 0 for r in tournament_standings(seated.tournament))


def test_undoing_a_table_with_no_result_is_refused_and_changes_nothing(seated):
    table = seated.tournament.rounds.get().tables.first()

    response = seated.client(seated.organiser).post(seated.url(f"desk/table/{table.pk}/undo/"))

    assert response.status_code == 409
    assert "has no result to undo" in response.content.decode()
    assert not ResultChange.objects.exists()


def test_the_desk_shows_each_tables_state_from_its_log_and_confirmations(
    seated, django_capture_on_commit_callbacks
):
    first, second = seated.tournament.rounds.get().tables.order_by("number")
    seated_user = next(
        user for user in seated.players.values() if first.seats.filter(player=user.player).exists()
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = seated.client(seated_user).post(
            f"/api/logs/?table={first.pk}",
            table_log(first, seed=5),
            content_type="application/json",
        )
    assert response.status_code == 201, response.content

    live = seated.client(seated.organiser).get(seated.url("desk/live/")).content.decode()

    assert GameLog.objects.get(pk=json.loads(response.content)["id"]).status == "verified"
    assert Review.objects.get().status == Review.Status.PENDING
    assert f'id="table-{first.pk}" data-state="{PENDING}"' in live
    assert f'id="table-{second.pk}" data-state="{WAITING}"' in live


def test_the_desk_shows_a_table_as_recording_once_its_recording_has_a_step(seated):
    first, second = seated.tournament.rounds.get().tables.order_by("number")
    recorder = next(
        user for user in seated.players.values() if first.seats.filter(player=user.player).exists()
    )
    base = {"game": "deep-vents", "players": [], "setup": {}, "table": first.pk}
    RecordingDraft.objects.create(
        recorder=recorder, key="started", game_type="deep-vents", table=first.pk, base=base
    )
    RecordingDraft.objects.create(
        recorder=recorder, key="under-way", game_type="deep-vents", table=second.pk, base=base,
        steps=[{"event": {}, "label": "a bid"}], step_count=1,
    )  # fmt: skip

    live = seated.client(seated.organiser).get(seated.url("desk/live/")).content.decode()

    assert f'id="table-{first.pk}" data-state="{WAITING}"' in live
    assert f'id="table-{second.pk}" data-state="{RECORDING}"' in live


def test_the_desk_shows_a_hand_result_as_done(seated):
    table = seated.tournament.rounds.get().tables.first()
    seats = list(table.seats.all())
    seated.client(seated.organiser).post(
        seated.url(f"desk/table/{table.pk}/"),
        {f"place_{s.pk}": str(i) for i, s in enumerate(seats, 1)},
    )

    live = seated.client(seated.organiser).get(seated.url("desk/live/")).content.decode()

    assert f'id="table-{table.pk}" data-state="{DONE}"' in live


def test_table_sheets_are_one_page_per_table_each_with_the_qr_code_of_its_record_link(seated):
    tables = list(seated.tournament.rounds.get().tables.order_by("number"))

    page = seated.client(seated.organiser).get(seated.url("desk/round/1/sheets/")).content.decode()

    assert page.count('class="sheet"') == len(tables) == 2
    assert page.count('<svg class="segno"') + page.count('class="segno"') >= len(tables)
    for table in tables:
        assert f"http://testserver/record/?table={table.pk}" in page


def test_the_tournament_calendar_lists_each_round_from_its_timer(seated):
    round_ = seated.tournament.rounds.get()
    day.start_timer(round_, 50)

    feed = seated.client(None).get(seated.url("calendar.ics"))

    assert feed.status_code == 200
    text = feed.content.decode()
    assert "BEGIN:VCALENDAR" in text and text.count("BEGIN:VEVENT") == 1
    assert "SUMMARY:Harbour Open: round 1" in text
    assert f"DTSTART:{round_.timer_started_at:%Y%m%dT%H%M%S}" in text.replace("Z", "")
    assert f"DTEND:{round_.ends_at:%Y%m%dT%H%M%S}" in text.replace("Z", "")


def test_a_players_calendar_lists_their_tables(seated):
    marina = seated.player("Marina Abyss")
    seat = TableSeat.objects.select_related("table").get(player=marina)

    feed = seated.client(None).get(f"/players/{marina.handle}/calendar.ics")

    text = feed.content.decode()
    assert feed.status_code == 200
    assert f"SUMMARY:Harbour Open: round 1\\, table {seat.table.number}" in text


def test_the_venue_screen_shows_the_pairings_and_the_standings(seated):
    page = seated.client(None).get(seated.url("screen/")).content.decode()

    assert "Round 1" in page
    for name in PLAYERS:
        assert page.count(name) == 2  # once at a table, once in the standings
    assert 'hx-trigger="every 15s"' in page


def test_check_in_by_the_organiser_marks_the_time(seated):
    registration = Registration.objects.get(player=seated.player("Nemo Trench"))
    before = timezone.now()

    seated.client(seated.organiser).post(
        seated.url("desk/check-in/"), {"registration": registration.pk}
    )

    registration.refresh_from_db()
    assert registration.checked_in_at >= before


def test_the_event_ends_only_once_the_last_round_has_every_result(seated):
    client = seated.client(seated.organiser)
    tables = list(seated.tournament.rounds.get().tables.order_by("number"))
    seats = list(tables[0].seats.all())
    client.post(
        seated.url(f"desk/table/{tables[0].pk}/"),
        {f"place_{s.pk}": str(i) for i, s in enumerate(seats, 1)},
    )

    refused = client.post(seated.url("desk/finish/"))

    assert refused.status_code == 409
    assert f"round 1 still has no result at table(s) {tables[1].number}" in refused.content.decode()
    seats = list(tables[1].seats.all())
    client.post(
        seated.url(f"desk/table/{tables[1].pk}/"),
        {f"place_{s.pk}": str(i) for i, s in enumerate(seats, 1)},
    )
    finished = client.post(seated.url("desk/finish/"))

    assert finished.status_code == 302
    seated.tournament.refresh_from_db()
    assert seated.tournament.status == Tournament.Status.FINISHED
    assert not seated.tournament.registration_open


def test_nobody_is_registered_at_the_desk_once_every_round_is_seated(seated):
    Tournament.objects.filter(pk=seated.tournament.pk).update(rounds_planned=1)

    response = seated.client(seated.organiser).post(
        seated.url("desk/register/"), {"names": "Brand New Diver"}
    )

    assert response.status_code == 400
    assert "nobody can be registered now: all 1 rounds of Harbour Open are seated" in (
        response.content.decode()
    )
    assert not Player.objects.filter(display_name="Brand New Diver").exists()


def finish_without_results(harbour) -> None:
    """The organiser ended the event (day.finish would first want every table's result)."""
    Tournament.objects.filter(pk=harbour.tournament.pk).update(status=Tournament.Status.FINISHED)
    harbour.tournament.refresh_from_db()


def test_a_finished_event_offers_no_more_rounds_timer_check_ins_drops_or_entries(seated):
    finish_without_results(seated)
    client = seated.client(seated.organiser)

    desk = client.get(seated.url("desk/")).content.decode()
    screen = client.get(seated.url("screen/")).content.decode()

    assert 'id="finished-note"' in desk and "the standings are final" in desk
    for offer in (
        'id="seat-round"',
        'id="start-timer"',
        'class="check-in"',
        'class="drop secondary',
        'id="register-names"',
        'id="finish"',
        "checked in ·",
    ):
        assert offer not in desk, offer
    assert "the timer has not been started" not in screen


def test_the_timer_of_a_finished_event_cannot_be_started(seated):
    finish_without_results(seated)

    response = seated.client(seated.organiser).post(seated.url("desk/timer/"), {"minutes": "45"})

    assert response.status_code in (400, 409)
    assert "is finished" in response.content.decode()
    assert not seated.tournament.rounds.filter(timer_started_at__isnull=False).exists()
