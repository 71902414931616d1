from django.apps import AppConfig
from django.db.models.signals import post_save


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from games.signals import game_counted, game_retracted
        from players.signals import players_merged
        from ratings import receivers
        from ratings.models import RatingLedger

        game_counted.connect(receivers.rate_verified_game, dispatch_uid="ratings.verified")
        game_retracted.connect(receivers.unrate_retracted_game, dispatch_uid="ratings.retracted")
        players_merged.connect(receivers.rerate_merged_player, dispatch_uid="ratings.merge")
        post_save.connect(
            receivers.announce_ledger_saved, sender=RatingLedger, dispatch_uid="ratings.ledger"
        )
