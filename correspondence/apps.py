from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    name = "correspondence"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Its notification kinds; the move path tells it of every move under a room's lock (your_turn, in
        # correspondence games), the games layer of every game's end (game_over); every event loop runs its
        # loop (warnings, seek pairing); a banned or closed player's seeks are withdrawn, a closed one's games
        # resigned.
        from correspondence.realtime import CorrespondenceLoop
        from correspondence.services import (
            TEXTS_OF_CORRESPONDENCE,
            game_over_notify,
            games_player_closed,
            seeks_player_ended,
            your_turn_notify,
        )
        from games.endings import GAME_FINISHED
        from live.runtime import LOOP_SERVICES
        from lobby.play.moves import MOVE_PLAYED
        from notifications.kinds import KINDS
        from players.services import PLAYER_ENDED

        for kind, text in TEXTS_OF_CORRESPONDENCE.items():
            KINDS.register(kind, text)
        MOVE_PLAYED.register(your_turn_notify)  # (it picks out the correspondence games' moves)
        GAME_FINISHED.register(game_over_notify)
        LOOP_SERVICES.register(CorrespondenceLoop)
        PLAYER_ENDED.register(seeks_player_ended)
        PLAYER_ENDED.register(games_player_closed)
