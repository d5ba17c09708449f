from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The session (players, below) answers with the player's rating, registered here.
        from players.session import SESSION_PARTS
        from ratings.views import SESSION_RATING

        SESSION_PARTS.register(SESSION_RATING)
