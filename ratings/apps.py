from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Ratings change in the transaction that ends a game: games.services calls its finish hooks there.
        from games.services import GAME_FINISHED_HOOKS
        from ratings.services import rating_on_game_finished

        if rating_on_game_finished not in GAME_FINISHED_HOOKS:
            GAME_FINISHED_HOOKS.append(rating_on_game_finished)
