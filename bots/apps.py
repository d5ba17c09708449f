from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer calls this hook, never importing the bot API: the players of a game that ended
        # hear gameFinish on their event streams.
        from bots.events import game_finished
        from games.services import GAME_FINISHED_HOOKS

        if game_finished not in GAME_FINISHED_HOOKS:
            GAME_FINISHED_HOOKS.append(game_finished)
