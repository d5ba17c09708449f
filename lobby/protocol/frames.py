"""What the rooms' and the lobby's sockets share: the choices a room or a seek may have, and the room
socket's close codes. Decoding a frame, ``ping``, ``pong`` and ``error`` are every socket's
(:mod:`live.frames`).

No module outside :mod:`lobby.protocol` (and :mod:`live.frames`) writes a frame's dict literal.
``docs/protocol.md`` documents every frame.
"""

from __future__ import annotations

# The turn timers a room or a seek may have (seconds per move; None: no timer).
TURN_SECONDS_CHOICES = (None, 30, 60)
# A correspondence game's days per move (None: a live game).
DAYS_PER_MOVE_CHOICES = (None, 1, 2, 3, 5, 7)

# Close codes of the room websocket. After these the page does not reconnect, except CLOSE_PLAYER_CHANGED
# (and live.frames.CLOSE_RETRY).
CLOSE_BANNED = 4403  # the device's player is banned (an error frame "banned" comes first)
CLOSE_UNKNOWN_ROOM = 4404  # no room has this code
CLOSE_PLAYER_CHANGED = 4409  # the device logged into an account: reconnect, as the account's player
CLOSE_ROOM_CLOSED = 4410  # the room is closed (its last snapshot and an error frame "room_closed" come first)
