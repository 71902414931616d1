"""The desk's "claim to decide" tag marks a registered name only while an account's request for
it waits for a decision: not names nobody asked for (with an account or without), nor names
whose request was decided. And only for who may decide it: staff who neither organise the
tournament nor hold the claim permission would be sent to a claims page they cannot use."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from tournament_day_support import tournament_day

from accounts.models import ClaimRequest
from players.models import Player
from tournaments.models import Registration

pytestmark = pytest.mark.django_db
ROW = re.compile(r'<tr data-handle="([^"]+)">(.*?)</tr>', re.S)


def test_only_the_name_with_an_open_claim_is_marked_claim_to_decide(django_user_model):
    harbour = tournament_day(["Marina Abyss", "Coral Reefson"])
    asked = Player.objects.create(handle="nemo-trench", display_name="Nemo Trench")
    decided = Player.objects.create(handle="pearl-diver", display_name="Pearl Diver")
    never_asked = Player.objects.create(handle="kelp-forrester", display_name="Kelp Forrester")
    for player in (harbour.player("Marina Abyss"), asked, decided, never_asked):
        Registration.objects.create(tournament=harbour.tournament, player=player)
    ClaimRequest.objects.create(user=django_user_model.objects.create_user("nemo"), player=asked)
    ClaimRequest.objects.create(
        user=django_user_model.objects.create_user("pearl"),
        player=decided,
        decided_at=timezone.now(),
        approved=False,
    )

    desk = harbour.client(harbour.organiser).get(harbour.url("desk/")).content.decode()

    marked = {handle for handle, row in ROW.findall(desk) if "claim to decide" in row}
    assert marked == {"nemo-trench"}


def marked_for(harbour, user) -> set[str]:
    desk = harbour.client(user).get(harbour.url("desk/")).content.decode()
    return {handle for handle, row in ROW.findall(desk) if "claim to decide" in row}


def test_staff_see_the_tag_only_when_they_hold_the_claim_permission(django_user_model):
    harbour = tournament_day(["Marina Abyss"])
    asked = Player.objects.create(handle="nemo-trench", display_name="Nemo Trench")
    Registration.objects.create(tournament=harbour.tournament, player=asked)
    ClaimRequest.objects.create(user=django_user_model.objects.create_user("nemo"), player=asked)

    without_permission = marked_for(harbour, harbour.staff)
    harbour.staff.user_permissions.add(Permission.objects.get(codename="change_claimrequest"))
    with_permission = marked_for(harbour, django_user_model.objects.get(pk=harbour.staff.pk))

    assert (without_permission, with_permission) == (set(), {"nemo-trench"})


def test_an_organisers_own_claim_is_marked_for_a_co_organiser_not_for_them(django_user_model):
    harbour = tournament_day(["Marina Abyss"])
    asked = Player.objects.create(handle="nemo-trench", display_name="Nemo Trench")
    Registration.objects.create(tournament=harbour.tournament, player=asked)
    co_organiser = django_user_model.objects.create_user("cora")
    harbour.tournament.organisers.add(co_organiser)
    ClaimRequest.objects.create(user=harbour.organiser, player=asked)

    assert marked_for(harbour, harbour.organiser) == set()
    assert marked_for(harbour, co_organiser) == {"nemo-trench"}
