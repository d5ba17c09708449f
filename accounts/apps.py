from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every event loop's runtime runs the mail loop (the outbox, and freeing closed accounts' names).
        from accounts.loop import MailLoop
        from lobby.realtime.runtime import LOOP_SERVICES

        LOOP_SERVICES.register(MailLoop)
