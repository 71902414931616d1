"""A verification task's first group is replayed under the leases its claim gave just now,
renewing none (a query a task: issue 25, CPU per verified log); each later group renews
the leases of the logs still ahead of it."""

import json

import pytest
from games_support import human_log, text

from games.models import GameLog, Upload
from games.services import verification

pytestmark = pytest.mark.django_db


def test_only_the_groups_after_the_first_renew_their_leases(monkeypatch):
    upload = Upload.objects.create()
    ids = []
    for seed in (1, 2, 3):
        raw = text(human_log(seed=seed))
        ids.append(
            GameLog.objects.create(
                upload=upload,
                raw=raw,
                sha256=GameLog.digest(raw),
                game_type=json.loads(raw)["game"],
            ).pk
        )
    renewed: list[list[int]] = []
    renew = GameLog.objects.renew_leases

    def count(log_ids, holder):
        renewed.append(list(log_ids))
        return renew(log_ids, holder)

    monkeypatch.setattr(GameLog.objects, "renew_leases", count)
    monkeypatch.setattr(verification, "GROUP_SIZE", 2)

    verification.verify_logs(ids)

    assert renewed == [ids[2:]]
    assert set(GameLog.objects.values_list("status", flat=True)) == {GameLog.Status.VERIFIED}
