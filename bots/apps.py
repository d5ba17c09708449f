from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The lower layers emit these hooks, never importing the bot API: the players of a game that ended
        # hear gameFinish on their event streams; a revoked token's streams end, and a banned or
        # closed account's or one with a new password; a banned or closed account's waiting challenges end.
        from bots.challenges import CHALLENGE_TEXTS, challenges_blocked, challenges_player_ended
        from bots.events import game_finished, player_ended, token_revoked
        from bots.sweep import ChallengeSweep
        from games.endings import GAME_FINISHED
        from live.runtime import LOOP_SERVICES
        from notifications.kinds import KINDS
        from players.services import PLAYER_ENDED
        from players.social import BLOCKS_CHANGED
        from players.tokens import TOKEN_REVOKED

        GAME_FINISHED.register(game_finished)
        TOKEN_REVOKED.register(token_revoked)
        PLAYER_ENDED.register(player_ended)
        PLAYER_ENDED.register(challenges_player_ended)
        # A block declines the blocked player's waiting challenges to the blocker, as a person would.
        BLOCKS_CHANGED.register(challenges_blocked)
        # Every event loop expires the challenges past their time (each once, whichever loop is first).
        LOOP_SERVICES.register(ChallengeSweep)
        # The challenges' notification kinds, each with its text (written when shown, in the reader's language).
        for kind, text in CHALLENGE_TEXTS.items():
            KINDS.register(kind, text)
