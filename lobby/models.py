"""What the rooms store: rooms, their seats, the open websocket connections to them, the server
processes holding those connections, their chat, and the pool of people looking for an opponent
("Play online")."""

from __future__ import annotations

import secrets

from django.db import models

from players.models import Player

# No 0/O and no 1/I: a code read aloud or copied by hand cannot be mistaken.
ROOM_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
ROOM_CODE_LENGTH = 6
SEAT_NUMBERS = (1, 2)
CHAT_MAX_CHARS = 200


def new_room_code() -> str:
    """A random room code: 32⁶ ≈ 10⁹ possibilities, drawn from the system's secure generator."""
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


class Room(models.Model):
    """A party room: two seats, house rules, and the games played in it.

    ``version`` grows by one with every change of what a room snapshot shows; it is written in the
    same transaction as the change, so clients can order snapshots from several server processes.
    ``spectators`` is the number of people watching as last shown: it is recounted from the
    connections at most about once a second (joins and leaves are coalesced), with a version bump.
    """

    code = models.CharField(max_length=ROOM_CODE_LENGTH, unique=True)
    host = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hosted_rooms")
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    # House rule: a correspondence room (days per move; None: live). Never set with ``turn_seconds``.
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    alternate_first = models.BooleanField(default=True)
    ranked = models.BooleanField(default=True)
    cpu_level = models.PositiveSmallIntegerField(default=3)
    # House rule: people who are not seated may talk in the spectators' chat.
    spectator_chat = models.BooleanField(default=True)
    # "Open to anyone": listed in the lobby while a seat is free; open_since is when the host opened it.
    open = models.BooleanField(default=False)
    open_since = models.DateTimeField(null=True, blank=True)
    # Made for two (quick pairing, an accepted challenge: both seats filled at creation), not hosted as a
    # party; what a player's list of games calls "online" (rooms from before the field count as parties).
    made_for_two = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    spectators = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    last_activity_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["closed_at", "last_activity_at"])]

    def __str__(self) -> str:
        return self.code


class Seat(models.Model):
    """One of a room's two seats.

    ``player`` is the person sitting here. ``cpu`` says the CPU plays this seat in the current game
    (set when a game starts with the seat empty). ``away`` says the CPU stands in for the absent player.

    ``disconnected_at`` is the seat's presence, kept here so that a move needs no look at the
    connections: None while the seat's player has at least one connection to the room (or while
    nobody sits here), else when they were last seen without one. It changes only when a connection
    opens or closes and when a dead process's connections are swept, each under the room's lock.
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats")
    cpu = models.BooleanField(default=False)
    wants_again = models.BooleanField(default=False)
    away = models.BooleanField(default=False)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="seat_unique_number"),
            models.CheckConstraint(condition=models.Q(number__in=SEAT_NUMBERS), name="seat_number_1_or_2"),
        ]
        ordering = ["number"]

    @property
    def is_connected(self) -> bool:
        """What the room shows as ``connected``: the CPU always is; a person while any tab is open."""
        return self.cpu or (self.player_id is not None and self.disconnected_at is None)


class ServerProcess(models.Model):
    """A server process holding websockets, and its heartbeat.

    A live process renews ``beat_at`` every few seconds; its connections are live as long as it does.
    One whose heartbeat lapsed (killed, hung) is marked ``swept`` by any other process, which then
    closes its connections. A swept process that wakes up finds its mark at its next heartbeat and
    registers again under a new id, opening its connections anew.
    """

    id = models.CharField(max_length=80, primary_key=True)
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField()
    swept = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["swept", "beat_at"])]

    def __str__(self) -> str:
        return self.id


class Connection(models.Model):
    """An open websocket to a room, kept in the database so every server process sees presence.

    Its liveness is its process's heartbeat (:class:`ServerProcess`): pings and frames are checked in
    the memory of the process holding the socket and cost no database write.
    """

    channel_name = models.CharField(max_length=200, unique=True)
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="connections")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE)
    process = models.CharField(max_length=80, db_index=True)
    opened_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["room", "player"])]


class ChatMessage(models.Model):
    """One message in one of a room's two chats: the players' or the spectators'.

    Either ``text`` (cleaned, at most ``CHAT_MAX_CHARS``) or ``phrase`` (a quick-phrase key) is set.
    ``author_name`` is the author's name when they wrote it. Writing one never touches the room row:
    a chat message is not a room change.
    """

    class Chat(models.TextChoices):
        PLAYERS = "players"
        SPECTATORS = "spectators"

    # Both foreign keys are indexed by the composite indexes below (their first column).
    # No database constraint on the room: in PostgreSQL a foreign key check takes a KEY SHARE lock on the room
    # row, which waits for the room lock every move holds; a message must never wait for a move.
    # Rooms are closed, never deleted, so the reference cannot dangle.
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, db_constraint=False, db_index=False, related_name="chat_messages"
    )
    chat = models.CharField(max_length=10, choices=Chat.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, db_index=False, related_name="chat_messages")
    author_name = models.CharField(max_length=40)
    text = models.CharField(max_length=CHAT_MAX_CHARS, blank=True)
    phrase = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["room", "id"], name="chat_room_id"),  # a room's latest messages
            models.Index(fields=["player", "created_at"], name="chat_player_at"),  # a player's rate
        ]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(text="") & ~models.Q(phrase="")) | (~models.Q(text="") & models.Q(phrase="")),
                name="chat_text_or_phrase",
            ),
        ]
class Seek(models.Model):
    """A player in the quick-pairing pool, waiting on one lobby websocket. One seek per player.

    The row lives as long as its socket: it is deleted when the socket closes or cancels, and
    ``last_seen_at`` is refreshed every couple of seconds by the socket's server process while its
    page is alive, so the seeks of a process that died expire within seconds and are never paired.
    A pairing sets ``room_code`` (the row stays until its socket closes, which then learns the code
    even if the channel message was lost).
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="seek")
    channel_name = models.CharField(max_length=200, unique=True)
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    ranked = models.BooleanField()
    rating = models.FloatField()
    since = models.DateTimeField()
    last_seen_at = models.DateTimeField()
    room_code = models.CharField(max_length=ROOM_CODE_LENGTH, null=True, blank=True)
    paired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["room_code", "last_seen_at"])]


class PairingWave(models.Model):
    """The single row that says when the last pairing wave started, and whether one is running.

    Every server process tries to start a wave every second; claiming one is a conditional UPDATE of
    this row (the last wave started ``PAIRING_WAVE_SECONDS`` ago and none is running), so one process
    wins each wave, waves never overlap, and they keep their pace however many processes run. A wave
    whose process died releases its claim when ``running_until`` passes.
    """

    started_at = models.DateTimeField()
    running_until = models.DateTimeField(null=True, blank=True)
