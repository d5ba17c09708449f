"""The rooms' and the lobby's live side: their websocket consumers and the lobby's loop service
(outbox, presence, ticker, matchmaker, lobby feed)."""
