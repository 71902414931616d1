"""Confirmations 0002 stores a dispute's step in words (Confirmation.step): disputes filed
before it get theirs from their log, in the words a new dispute is given."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from confirmations import services
from confirmations.models import Confirmation
from tests.confirmation_support import submitted_game
from tests.notices_support import NAMES, cast

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_STEPS = [("confirmations", "0001_confirmations")]


def test_a_dispute_filed_before_the_migration_gets_its_step_in_words():
    people = cast()
    game = submitted_game(NAMES, people.ann.user, seed=1)
    services.dispute(game.log_id, people.bea.user, 4, "I took position 2")
    waiting = Confirmation.objects.get(review__log_id=game.log_id, answer="waiting")

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_STEPS)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM confirmations_confirmation")
            assert cursor.fetchone() == (2,)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    dispute = Confirmation.objects.get(review__log_id=game.log_id, answer="disputed")
    assert dispute.step == "turn 1, Ann Abyss: take Vampire Squid at position 1 (pay 0)"
    assert Confirmation.objects.get(pk=waiting.pk).step == ""
