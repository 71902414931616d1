from django.apps import AppConfig


class NoticesConfig(AppConfig):
    """The site's inbox: what it tells each player, and by e-mail per their preferences. Low in
    the layering (it knows players, games and accounts); feature apps call into it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"

    def ready(self) -> None:
        # The receivers of players' claim signals; importing them also registers the Celery
        # tasks defined in notices.services, so a worker knows them by name.
        from notices import receivers  # noqa: F401
