from django.apps import AppConfig


class ConfirmationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "confirmations"

    def ready(self) -> None:
        from confirmations import receivers
        from games.signals import game_verified

        # The one receiver of game_verified that decides whether the game counts now
        # (game_counted, which ratings, statistics and standings hear) or after confirmation.
        game_verified.connect(receivers.on_game_verified, dispatch_uid="confirmations.verified")
