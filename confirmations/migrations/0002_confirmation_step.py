"""A dispute keeps the disputed event in words (Confirmation.step); disputes filed before
have theirs written from their log, by the function that writes new ones."""

from django.db import migrations, models

from games.viewer import event_in_words

STEP_LENGTH = 400


def tell_existing_disputes(apps, schema_editor):
    Confirmation = apps.get_model("confirmations", "Confirmation")
    disputes = Confirmation.objects.filter(answer="disputed", step="").select_related(
        "review__log"
    )
    for dispute in disputes.iterator(chunk_size=200):
        dispute.step = event_in_words(dispute.review.log.raw, dispute.event)[:STEP_LENGTH]
        dispute.save(update_fields=["step"])


class Migration(migrations.Migration):
    dependencies = [
        ("confirmations", "0001_confirmations"),
        ("games", "0018_recording_draft_revision"),
    ]

    operations = [
        migrations.AddField(
            model_name="confirmation",
            name="step",
            field=models.CharField(blank=True, max_length=400),
        ),
        migrations.RunPython(tell_existing_disputes, migrations.RunPython.noop),
    ]
