from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from games.signals import game_counted, game_retracted, game_seats_merged
        from ratings.signals import elo_going_in_moved, ratings_changed
        from stats import cache, receivers

        game_counted.connect(receivers.on_game_verified, dispatch_uid="stats.verified")
        game_retracted.connect(receivers.on_game_retracted, dispatch_uid="stats.retracted")
        game_seats_merged.connect(receivers.on_game_seats_merged, dispatch_uid="stats.merge")
        elo_going_in_moved.connect(receivers.on_elo_going_in_moved, dispatch_uid="stats.bands")
        # The page cache's versions move with the aggregates and the ratings.
        game_counted.connect(cache.on_game_changed, dispatch_uid="stats.cache.verified")
        game_retracted.connect(cache.on_game_changed, dispatch_uid="stats.cache.retracted")
        ratings_changed.connect(cache.on_ratings_changed, dispatch_uid="stats.cache.ratings")
        post_save.connect(
            cache.on_player_changed, sender="players.Player", dispatch_uid="stats.cache.saved"
        )
        post_delete.connect(
            cache.on_player_changed, sender="players.Player", dispatch_uid="stats.cache.deleted"
        )
