from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer emits and reads these, never importing the puzzles: a stored analysis turns its
        # proved missed wins into puzzles, and a player's page shows the player's puzzle rating.
        from games.analyses import ANALYSIS_STORED
        from games.selectors import PLAYER_PAGE_PARTS, PagePart
        from players.accounts import GUEST_REPLACED
        from players.identity import DEVICE_ATTACHED
        from puzzles.device import puzzles_device_attached
        from puzzles.selectors import player_puzzles_part
        from puzzles.services import puzzles_from_analysis, puzzles_guest_replaced

        ANALYSIS_STORED.register(puzzles_from_analysis)
        # The players layer's: a device's (or a replaced guest's) seen solutions become its player's.
        DEVICE_ATTACHED.register(puzzles_device_attached)
        GUEST_REPLACED.register(puzzles_guest_replaced)
        PLAYER_PAGE_PARTS.register(PagePart("puzzles", player_puzzles_part))
