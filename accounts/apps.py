from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every event loop's runtime runs the mail loop (the outbox, and freeing closed accounts' names);
        # a committed notification of a kind the account chose is emailed.
        from accounts.loop import MailLoop
        from accounts.notices import notification_email
        from live.runtime import LOOP_SERVICES
        from notifications.services import NOTIFIED

        LOOP_SERVICES.register(MailLoop)
        NOTIFIED.register(notification_email)
