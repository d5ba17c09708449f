from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The chat asks before every message whether its author may write: a muted one may not.
        from lobby.chat.services import SAY_CHECKS
        from moderation.services import refuse_muted

        SAY_CHECKS.register(refuse_muted)
