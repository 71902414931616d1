"""A name several accounts asked for says it has awaited approval since the oldest undecided
request (pages.services.profiles.open_claim): the wait began then, and the deciders take the
open requests oldest first (accounts.services); a decided request, however old, is no longer
waiting. Reversing the order (or dropping it) named a later request's date."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import ClaimRequest
from pages.services.profiles import claim_status
from players.models import Player

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


@pytest.fixture
def asked() -> dict[str, datetime.datetime]:
    """Four accounts asked for "sam" on four days: the first was refused; the other three wait,
    written newest first (so neither the rows' own order nor the newest date is the oldest)."""
    sam = Player.objects.create(handle="sam", display_name="Sam")
    now = timezone.now().replace(microsecond=0)
    days = {"refused": now - 40 * DAY, "newest": now - 2 * DAY}
    days |= {"oldest": now - 30 * DAY, "middle": now - 10 * DAY}
    for name, day in days.items():
        user = get_user_model().objects.create_user(name, password="x")
        claim = ClaimRequest.objects.create(user=user, player=sam)
        decided = {"decided_at": now, "approved": False} if name == "refused" else {}
        ClaimRequest.objects.filter(pk=claim.pk).update(created=day, **decided)
    return days


def test_a_name_asked_for_by_several_accounts_awaits_approval_since_the_oldest_open_request(
    client, asked
):
    status = claim_status(Player.objects.get(handle="sam"))
    page = client.get("/players/sam/").content.decode()
    shown = re.search(r'<p id="claim-status" data-state="([^"]+)">(.*?)</p>', page, re.S)

    assert status == {"state": "awaiting approval", "since": asked["oldest"]}
    assert shown.group(1) == "awaiting approval"
    assert f"asked on {asked['oldest']:%Y-%m-%d} " in shown.group(2)
