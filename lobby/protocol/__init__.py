"""The wire format of the server's websockets: frames parsed in, frames built out. No Django, no I/O.

``frames`` holds what every socket shares, ``room`` the room socket, ``lobby`` the lobby socket and
``snapshot`` the JSON of a room as clients see it. ``docs/protocol.md`` documents every frame.
"""
