from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The players layer emits the hook, never importing the notifications: a new follow tells the
        # followed account (in the follow's transaction), a kind of this app's own.
        from notifications.kinds import KINDS
        from notifications.people import followed_notify, followed_text
        from players.social import FOLLOWED

        FOLLOWED.register(followed_notify)
        KINDS.register("followed", followed_text)
