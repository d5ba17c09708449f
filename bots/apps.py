from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer emits this hook, never importing the bot API: the players of a game that ended
        # hear gameFinish on their event streams.
        from bots.events import game_finished
        from bots.sweep import ChallengeSweep
        from games.services import GAME_FINISHED
        from lobby.realtime.runtime import LOOP_SERVICES

        GAME_FINISHED.register(game_finished)
        # Every event loop expires the challenges past their time (each once, whichever loop is first).
        LOOP_SERVICES.register(ChallengeSweep)
