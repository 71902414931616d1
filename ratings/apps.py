from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from games.signals import game_counted, game_retracted
        from players.signals import players_merged
        from ratings import receivers

        game_counted.connect(receivers.rate_verified_game, dispatch_uid="ratings.verified")
        game_retracted.connect(receivers.unrate_retracted_game, dispatch_uid="ratings.retracted")
        players_merged.connect(receivers.rerate_merged_player, dispatch_uid="ratings.merge")
