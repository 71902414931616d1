"""Calendar feeds (iCal, django-ical): a tournament's rounds, and a player's tables across
every tournament, each with its start time: when the organiser started the round's timer,
else when the round was seated. A round lasts its timer's minutes (ROUND_DEFAULT without)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.shortcuts import get_object_or_404
from django_ical.views import ICalFeed

from players.models import Player
from tournaments.models import Round, TableSeat, Tournament

ROUND_DEFAULT = timedelta(minutes=90)


def round_start(round_: Round) -> datetime:
    return round_.timer_started_at or round_.seated_at


def round_end(round_: Round) -> datetime:
    return round_.ends_at or round_start(round_) + ROUND_DEFAULT


class TournamentFeed(ICalFeed):
    product_id = "-//Deep-sea tournaments//Rounds//EN"
    timezone = "UTC"

    def get_object(self, request, slug: str) -> Tournament:
        return get_object_or_404(Tournament, slug=slug)

    def title(self, tournament: Tournament) -> str:
        return tournament.name

    def file_name(self, tournament: Tournament) -> str:
        return f"{tournament.slug}.ics"

    def items(self, tournament: Tournament):
        return tournament.rounds.select_related("tournament").order_by("number")

    def item_title(self, round_: Round) -> str:
        return f"{round_.tournament.name}: round {round_.number}"

    def item_description(self, round_: Round) -> str:
        return f"Round {round_.number} of {round_.tournament.rounds_planned}"

    def item_link(self, round_: Round) -> str:
        return round_.get_absolute_url()

    def item_guid(self, round_: Round) -> str:
        return f"round-{round_.pk}@deepsea"

    def item_start_datetime(self, round_: Round) -> datetime:
        return round_start(round_)

    def item_end_datetime(self, round_: Round) -> datetime:
        return round_end(round_)


class PlayerFeed(ICalFeed):
    product_id = "-//Deep-sea tournaments//Tables//EN"
    timezone = "UTC"

    def get_object(self, request, handle: str) -> Player:
        return get_object_or_404(Player, handle=handle)

    def title(self, player: Player) -> str:
        return f"{player.display_name}'s tournament rounds"

    def file_name(self, player: Player) -> str:
        return f"{player.handle}.ics"

    def items(self, player: Player):
        return (
            TableSeat.objects.filter(player=player)
            .select_related("table__round__tournament")
            .order_by("-table__round__seated_at")[:500]
        )

    def item_title(self, seat: TableSeat) -> str:
        round_ = seat.table.round
        return f"{round_.tournament.name}: round {round_.number}, table {seat.table.number}"

    def item_description(self, seat: TableSeat) -> str:
        opener = " You open the bidding." if seat.opening_bidder else ""
        return f"Seat {seat.seat + 1} at table {seat.table.number}.{opener}"

    def item_link(self, seat: TableSeat) -> str:
        return seat.table.get_absolute_url()

    def item_guid(self, seat: TableSeat) -> str:
        return f"seat-{seat.pk}@deepsea"

    def item_start_datetime(self, seat: TableSeat) -> datetime:
        return round_start(seat.table.round)

    def item_end_datetime(self, seat: TableSeat) -> datetime:
        return round_end(seat.table.round)
