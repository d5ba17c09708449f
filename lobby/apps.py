from collections.abc import Callable
from typing import TypeVar

from django.apps import AppConfig

Hook = TypeVar("Hook", bound=Callable[..., None])


def _add_once(hooks: list[Hook], hook: Hook) -> None:
    if hook not in hooks:
        hooks.append(hook)


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

        _add_once(PLAYER_RENAMED_HOOKS, rooms_player_renamed)
        _add_once(PLAYER_BANNED_HOOKS, rooms_player_banned)
        _add_once(GUEST_REPLACED_HOOKS, rooms_guest_replaced)
