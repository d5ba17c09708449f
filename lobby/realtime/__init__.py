"""Everything live: the websocket consumers, the one way off the event loop, and each loop's runtime
(outbox, presence, ticker, matchmaker, lobby feed)."""
