"""The bot API: bot accounts, challenges between people and bots, the NDJSON event and game streams, and a
bot's moves, chat and resignation (docs/bots.md). Above the rooms: a challenge accepted becomes an
ordinary room and game through ``lobby``'s services, and a bot's move is ``lobby.play.moves.game_drop``."""
