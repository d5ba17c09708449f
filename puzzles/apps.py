from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer calls these hooks, never importing the puzzles: a stored analysis turns its
        # proved missed wins into puzzles, and a player's page shows the player's puzzle rating.
        from games.selectors import PLAYER_PAGE_PARTS
        from games.services import ANALYSIS_STORED_HOOKS
        from puzzles.selectors import player_puzzles_part
        from puzzles.services import puzzles_from_analysis

        if puzzles_from_analysis not in ANALYSIS_STORED_HOOKS:
            ANALYSIS_STORED_HOOKS.append(puzzles_from_analysis)
        PLAYER_PAGE_PARTS["puzzles"] = player_puzzles_part
