from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Game logs"

    def ready(self) -> None:
        from games import checks, receivers  # noqa: F401 (checks: registers them)
        from players.signals import players_merging

        players_merging.connect(receivers.move_merged_seats, dispatch_uid="games.merge")
