"""The arenas live: each event loop's arena loop (pairing waves, the clock) and standings feed, the arena socket."""
