from django.apps import AppConfig


class StudyConfig(AppConfig):
    name = "study"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer emits it, never importing the study tools: a finished game is learned by the
        # opening explorer in the transaction of its post-game work (games.postgame), so exactly once.
        from games.endings import POST_GAME
        from study.explorer import explorer_learn_settling

        POST_GAME.register(explorer_learn_settling)
