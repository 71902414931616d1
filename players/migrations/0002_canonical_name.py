"""Players are matched on a canonical form of their name (players.names.canonical_name).

Each existing player gets the canonical form of the name their games call them by most
often (so the logs already stored find them again on a reverify), else of their display
name when it was what logs were matched to (its slug is the handle), else of the handle. A
form another player already holds falls back to the handle's, which no one else has.
"""

from collections import Counter

from django.db import migrations, models
from django.utils.text import slugify

from players.names import canonical_name


def fill_canonical_names(apps, schema_editor):
    player_model = apps.get_model("players", "Player")
    seat_model = apps.get_model("games", "GameSeat")
    players = list(player_model.objects.order_by("pk"))
    handles = {canonical_name(p.handle) for p in players}
    taken: set[str] = set()
    for player in players:
        used = Counter(
            canonical_name(name)
            for name in seat_model.objects.filter(player=player).values_list("name", flat=True)
        )
        candidates = [name for name, _ in used.most_common()]
        if slugify(player.display_name) == player.handle:
            candidates.append(canonical_name(player.display_name))
        own_handle = canonical_name(player.handle)
        chosen = next(
            (
                name
                for name in candidates
                if name and name not in taken and (name not in handles or name == own_handle)
            ),
            own_handle,
        )
        if chosen in taken:  # two handles of one canonical form (ß and ss): keep both apart
            chosen = f"{chosen}#{player.pk}"
        taken.add(chosen)
        player.canonical_name = chosen
        player.save(update_fields=["canonical_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_initial"),
        ("games", "0004_gameseat_player_from_players_app"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="canonical_name",
            field=models.CharField(editable=False, max_length=100, null=True),
        ),
        migrations.RunPython(fill_canonical_names, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="canonical_name",
            field=models.CharField(
                editable=False,
                help_text="What names are matched on (players.names.canonical_name): NFKC, "
                "case-folded, trimmed. Set from the display name when the player is created.",
                max_length=100,
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="display_name",
            field=models.CharField(help_text="The name as written.", max_length=100),
        ),
    ]
