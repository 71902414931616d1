from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games.services.tables import register_table_desk
        from tournaments.services.desk import TournamentTableDesk

        register_table_desk(TournamentTableDesk())
