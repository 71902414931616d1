from django.apps import AppConfig


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from games.signals import game_retracted, game_verified
        from stats import receivers

        game_verified.connect(receivers.on_game_verified, dispatch_uid="stats.verified")
        game_retracted.connect(receivers.on_game_retracted, dispatch_uid="stats.retracted")
