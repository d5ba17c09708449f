from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer emits and reads these, never importing the puzzles: a stored analysis turns its
        # proved missed wins into puzzles, and a player's page shows the player's puzzle rating.
        from games.analyses import ANALYSIS_STORED
        from games.selectors import PLAYER_PAGE_PARTS, PagePart
        from puzzles.selectors import player_puzzles_part
        from puzzles.services import puzzles_from_analysis

        ANALYSIS_STORED.register(puzzles_from_analysis)
        PLAYER_PAGE_PARTS.register(PagePart("puzzles", player_puzzles_part))
