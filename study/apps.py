from django.apps import AppConfig


class StudyConfig(AppConfig):
    name = "study"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer emits it, never importing the study tools: a finished game is learned by the
        # opening explorer once its transaction has committed.
        from games.endings import GAME_FINISHED
        from study.explorer import explorer_learn_finished

        GAME_FINISHED.register(explorer_learn_finished)
