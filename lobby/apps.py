from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The players layer emits these hooks, never importing the rooms: a renamed player is shown anew
        # in the rooms that seat them, a banned player's sockets close, and a guest replaced by an
        # account on login hands its rooms over (each inside the players' transaction); a banned or closed
        # player's quick seek ends; a closed account's live games are resigned. The games layer tells of a
        # game's post-game work done.
        from games.endings import GAME_FINISHED
        from live.runtime import LOOP_SERVICES
        from lobby import events
        from lobby.chat.services import chat_blocks_changed
        from lobby.pairing.seeks import seeks_player_ended
        from lobby.play.moves import live_games_player_closed
        from lobby.realtime.loop import LobbyLoop
        from lobby.rooms.handlers import (
            room_game_settled,
            rooms_guest_replaced,
            rooms_player_ended,
            rooms_player_renamed,
        )
        from lobby.rooms.views import SESSION_ROOMS
        from notifications.services import NOTIFIED
        from players.accounts import GUEST_REPLACED
        from players.services import PLAYER_ENDED, PLAYER_RENAMED
        from players.session import SESSION_PARTS
        from players.social import BLOCKS_CHANGED

        # Every event loop's presence, ticker, matchmaker and lobby lists: the lobby's loop service (its
        # signals, ListsChanged and WakeUp, with it).
        LOOP_SERVICES.register(LobbyLoop)

        PLAYER_RENAMED.register(rooms_player_renamed)
        PLAYER_ENDED.register(rooms_player_ended)
        PLAYER_ENDED.register(live_games_player_closed)
        PLAYER_ENDED.register(seeks_player_ended)
        GUEST_REPLACED.register(rooms_guest_replaced)
        # A game's post-game work done (its rating): a room that shows ratings shows the new ones.
        GAME_FINISHED.register(room_game_settled)
        # A stored notification reaches every open page of its player, through the one delivery path.
        NOTIFIED.register(events.notification_delivered)
        # A block made or lifted: the blocker's room sockets hide (or show again) the blocked one's chat.
        BLOCKS_CHANGED.register(chat_blocks_changed)
        # The session (players, below) answers with the rooms where the player has a seat.
        SESSION_PARTS.register(SESSION_ROOMS)
