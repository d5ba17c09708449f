"""Play in a room: a person's move, starting and ending games, and the automatic moves (CPU, timeouts)."""
