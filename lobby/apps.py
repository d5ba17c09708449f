from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The players layer calls these hooks, never importing the rooms: a renamed player is shown anew
        # in the rooms that seat them, a banned player's sockets close, and a guest replaced by an
        # account on login hands its rooms over.
        from lobby import events
        from lobby.realtime import runtime
        from lobby.rooms.services import rooms_guest_replaced, rooms_player_banned, rooms_player_renamed
        from players.accounts import GUEST_REPLACED_HOOKS
        from players.services import PLAYER_BANNED_HOOKS, PLAYER_RENAMED_HOOKS

        # Every event a committed transaction queues (lobby.events) leaves through the realtime runtime.
        events.deliver_with(runtime.deliver)

        for hooks, hook in (
            (PLAYER_RENAMED_HOOKS, rooms_player_renamed),
            (PLAYER_BANNED_HOOKS, rooms_player_banned),
            (GUEST_REPLACED_HOOKS, rooms_guest_replaced),
        ):
            if hook not in hooks:
                hooks.append(hook)
