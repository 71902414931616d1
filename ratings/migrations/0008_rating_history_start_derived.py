from django.db import migrations
from django.db.models import F

CHUNK = 64  # ratings.history.CHUNK when its chunks were cut


def build_histories(apps, schema_editor) -> None:
    """Every player's packed rating history, from the rating changes stored, for a database
    that had none: 0007 makes the table and this fills it, with the code of today (which
    writes no `start`)."""
    from ratings import history

    if not apps.get_model("ratings", "RatingHistory").objects.exists():
        history.rebuild()


def starts_written(apps, schema_editor) -> None:
    """Going back: each chunk's start, from its number."""
    apps.get_model("ratings", "RatingHistory").objects.update(start=F("chunk") * CHUNK)


class Migration(migrations.Migration):
    """A chunk's start is its number x CHUNK: the column goes (issue 25, bytes per game)."""

    dependencies = [
        ("ratings", "0007_rating_history"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, starts_written),
        migrations.RemoveField(model_name="ratinghistory", name="start"),
        migrations.RunPython(build_histories, migrations.RunPython.noop, elidable=True),
    ]
