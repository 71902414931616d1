from django.db import migrations, models
from django.db.models import F


def build_histories(apps, schema_editor) -> None:
    """Every player's packed rating history, from the rating changes stored, for a database
    that had none: 0007 makes the table and this fills it, with the code of today (which
    writes no `start`)."""
    from ratings import history

    if not apps.get_model("ratings", "RatingHistory").objects.exists():
        history.rebuild()


def starts_written(apps, schema_editor) -> None:
    """Going back: each chunk's start, from its number (and the CHUNK it was cut with)."""
    from ratings import history

    apps.get_model("ratings", "RatingHistory").objects.update(start=F("chunk") * history.CHUNK)


class Migration(migrations.Migration):
    """A chunk's start is its number x CHUNK: the column goes (issue 25, bytes per game)."""

    dependencies = [
        ("ratings", "0007_rating_history"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, starts_written),
        # Going back, the column comes again on rows already there: zero until written.
        migrations.AlterField(
            model_name="ratinghistory",
            name="start",
            field=models.IntegerField(default=0),
        ),
        migrations.RemoveField(model_name="ratinghistory", name="start"),
        migrations.RunPython(build_histories, migrations.RunPython.noop, elidable=True),
    ]
