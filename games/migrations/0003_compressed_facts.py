"""Game.facts as zlib-compressed JSON bytes (CompressedJSONField): existing rows converted."""

from django.db import migrations

import games.models

BATCH = 500


def compress_facts(apps, schema_editor) -> None:
    Game = apps.get_model("games", "Game")
    games = Game.objects.only("facts").order_by("pk")
    batch = []
    for game in games.iterator(chunk_size=BATCH):
        game.compressed_facts = game.facts
        batch.append(game)
        if len(batch) >= BATCH:
            Game.objects.bulk_update(batch, ["compressed_facts"])
            batch = []
    Game.objects.bulk_update(batch, ["compressed_facts"])


def expand_facts(apps, schema_editor) -> None:
    Game = apps.get_model("games", "Game")
    batch = []
    for game in Game.objects.only("compressed_facts").order_by("pk").iterator(chunk_size=BATCH):
        game.facts = game.compressed_facts
        batch.append(game)
        if len(batch) >= BATCH:
            Game.objects.bulk_update(batch, ["facts"])
            batch = []
    Game.objects.bulk_update(batch, ["facts"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_upload_duplicates_verdict_change"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="compressed_facts",
            field=games.models.CompressedJSONField(default=list),
        ),
        migrations.RunPython(compress_facts, expand_facts),
        migrations.RemoveField(model_name="game", name="facts"),
        migrations.RenameField(model_name="game", old_name="compressed_facts", new_name="facts"),
    ]
