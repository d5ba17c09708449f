from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The games layer tells its hook of every game's end (an arena scores its own); its notification kind
        # (arena_starting) with its text; the realtime runtime of every event loop starts this app's loop
        # (pairing waves, standings) with its own; a banned or closed player is withdrawn from the arenas.
        from games.endings import GAME_FINISHED
        from live.runtime import LOOP_SERVICES
        from notifications.kinds import KINDS
        from players.services import PLAYER_ENDED
        from tournaments.realtime.loop import ArenaLoop
        from tournaments.services import arena_game_finished, arena_starting_text, arenas_player_ended

        GAME_FINISHED.register(arena_game_finished)
        KINDS.register("arena_starting", arena_starting_text)
        LOOP_SERVICES.register(ArenaLoop)
        PLAYER_ENDED.register(arenas_player_ended)
