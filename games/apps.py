from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every event loop does the post-game work of the games that ended (each once, whichever loop is first).
        from games.postgame import PostGameLoop
        from live.runtime import LOOP_SERVICES

        LOOP_SERVICES.register(PostGameLoop)
