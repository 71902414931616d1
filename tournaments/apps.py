from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games.services.table_desk import register_table_desk
        from games.signals import game_verified
        from players.signals import players_merging
        from tournaments import receivers
        from tournaments.services.desk import TournamentTableDesk

        register_table_desk(TournamentTableDesk())
        game_verified.connect(receivers.store_eliminations, dispatch_uid="tournaments.eliminations")
        players_merging.connect(receivers.move_merged_entries, dispatch_uid="tournaments.merge")
