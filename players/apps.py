from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """The people who play, and their names: the bottom layer that games, tournaments,
    ratings and statistics all build on (it imports none of them)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
