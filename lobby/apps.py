from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A renamed player is shown anew in the rooms that seat them: the players layer calls this hook.
        from lobby.services import rooms_player_renamed
        from players.services import PLAYER_RENAMED_HOOKS

        if rooms_player_renamed not in PLAYER_RENAMED_HOOKS:
            PLAYER_RENAMED_HOOKS.append(rooms_player_renamed)
