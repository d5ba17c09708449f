from django.apps import AppConfig


class ArcadeConfig(AppConfig):
    name = "arcade"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A player's page shows each mode's best run (the games layer's registry; it never imports the arcade).
        from arcade.loop import ArcadeSweep
        from arcade.selectors import player_arcade_part
        from arcade.services import runs_guest_replaced
        from games.selectors import PLAYER_PAGE_PARTS, PagePart
        from live.runtime import LOOP_SERVICES
        from players.accounts import GUEST_REPLACED

        PLAYER_PAGE_PARTS.register(PagePart("arcade", player_arcade_part))
        # Every event loop closes the idle runs (each once, replayed and ranked, whichever loop is first).
        LOOP_SERVICES.register(ArcadeSweep)
        # A guest who logs in plays their open runs on as the account.
        GUEST_REPLACED.register(runs_guest_replaced)
