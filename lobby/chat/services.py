"""Room chat: who may write and read each of a room's two chats, the limits, and the history.

- The **players' chat** is written by the seated people and read by everyone in the room.
- The **spectators' chat** is written and read by the people who are not seated. The seated read it
  too, but not while a game is being played (no coaching from the audience); once the game is over
  they see all of it. While the host has turned it off (house rule ``spectator_chat``) nobody writes
  or reads it.

A message is not a room change: saying something is a plain insert, with no room lock and no
version bump, sent to the room's group once committed. Who may read a message is decided per
connection when it is delivered (:class:`lobby.chat.visibility.ChatView`, from the latest snapshot that
connection was sent); the history is read by :mod:`lobby.chat.selectors`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from common.errors import Refused
from common.hooks import Registry
from lobby import events
from lobby.chat.limits import chat_address_quota_take
from lobby.models import CHAT_MAX_CHARS, ChatMessage, Connection, Room, Seat
from lobby.protocol.room import CHATS, PHRASES, PLAYERS, SPECTATORS, message_json
from lobby.rooms.selectors import current_game_playing
from players.models import Player
from players.social import BlocksChanged

MAX_CHARS = CHAT_MAX_CHARS
RATE_MESSAGES = 5
RATE_WINDOW = timedelta(seconds=10)

# Bidirectional embeddings, overrides, isolates and marks: invisible, and able to make the text
# around them read backwards (a name or a link shown as something else).
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# --- what a message may say -----------------------------------------------------------------------
def clean_text(text: str) -> str:
    """``text`` as it is stored and shown: one line, no control characters, trimmed.

    Line and paragraph breaks and tabs become spaces; every other control character, the
    bidirectional controls and lone surrogates are removed; then whitespace is trimmed at both ends.

    Raises:
        Refused(empty): nothing is left.
        Refused(too_long): more than ``MAX_CHARS`` characters are left.
    """
    kept: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            if char.isspace():
                kept.append(" ")
        elif category != "Cs" and char not in _BIDI_CONTROLS:
            kept.append(char)
    cleaned = "".join(kept).strip()
    if not cleaned:
        raise Refused("empty", gettext("Write something first: a message cannot be empty."))
    if len(cleaned) > MAX_CHARS:
        raise Refused("too_long", gettext("A message is at most %(most)s characters; this one has %(length)s.")
                      % {"most": MAX_CHARS, "length": len(cleaned)})
    return cleaned


def _check_may_write(room: Room, *, seated: bool, chat: str) -> None:
    """Raises Refused(not_allowed) unless someone ``seated`` (or not) may write in ``chat`` of ``room``."""
    if chat == PLAYERS and not seated:
        raise Refused("not_allowed", gettext("Only the seated players write in the players' chat; take a seat first."))
    if chat == SPECTATORS and seated:
        raise Refused("not_allowed", gettext("You are seated: write in the players' chat."))
    if chat == SPECTATORS and not room.spectator_chat:
        raise Refused("not_allowed", gettext("The host has turned the spectators' chat off."))


# --- saying something ------------------------------------------------------------------------------
# Checks of the layers above that may refuse a message (moderation: a muted player), each called with the
# player and ``now`` under the lock on the player's row; one raises Refused to refuse it.
SAY_CHECKS: Registry[Callable[[Player, datetime], None]] = Registry("say checks")


def chat_say(
    *, code: str, player: Player, chat: str, text: str | None = None, phrase: str | None = None, now: datetime,
    address: str | None = None,
) -> dict[str, Any]:
    """Store what ``player`` says in ``chat`` of room ``code``; once committed, send it to the room.

    Exactly one of ``text`` (cleaned by :func:`clean_text`) and ``phrase`` (one of ``PHRASES``) is
    given. The room row is read, never locked, and its version is left alone. The rate limit counts
    the player's stored messages in every room within ``RATE_WINDOW`` before ``now``, under a lock on
    the player's row, so it holds across their tabs and across server processes; a message the player may
    write counts then against the client ``address`` when given (:mod:`lobby.chat.limits`).

    Returns the message as a chat object (:func:`message_json`).

    Raises:
        Refused: no_room, not_allowed, bad_frame (an unknown chat or phrase), empty, too_long,
            rate_limited, or a refusal of one of the ``SAY_CHECKS`` (muted).
    """
    if chat not in CHATS:
        raise Refused("bad_frame", gettext('The chat is "players" or "spectators".'))
    if (text is None) == (phrase is None):
        raise Refused("bad_frame", gettext("A message has a text or a phrase."))
    if phrase is not None and phrase not in PHRASES:
        raise Refused("bad_frame", gettext("Unknown phrase; the phrases are %(phrases)s.")
                      % {"phrases": ", ".join(PHRASES)})
    room = Room.objects.filter(code=code, closed_at=None).first()
    if room is None:
        raise Refused("no_room", gettext("There is no open room %(code)s.") % {"code": code})
    seated = Seat.objects.filter(room=room, player=player).exists()
    _check_may_write(room, seated=seated, chat=chat)
    cleaned = clean_text(text) if text is not None else ""
    # Which game a spectators' message was written during: a seated reader gets it after that game.
    playing = current_game_playing(room)
    with transaction.atomic():
        # The player's row serialises their messages (every tab, every process) while counting them.
        name = Player.objects.select_for_update().values_list("name", flat=True).get(pk=player.pk)
        for check in SAY_CHECKS:
            check(player, now)
        recent = ChatMessage.objects.filter(player=player, created_at__gt=now - RATE_WINDOW).count()
        if recent >= RATE_MESSAGES:
            seconds = int(RATE_WINDOW.total_seconds())
            raise Refused("rate_limited", gettext("Slow down: at most %(most)s messages in %(seconds)s seconds.")
                          % {"most": RATE_MESSAGES, "seconds": seconds})
        if address is not None:
            chat_address_quota_take(address=address, now=now)
        message = ChatMessage.objects.create(
            room=room, chat=chat, player=player, author_name=name, text=cleaned, phrase=phrase or "", created_at=now
        )
        body = message_json(message)
        events.chat_on_commit(room.code, body, game_number=playing.number if playing is not None else None)
    return body


def chat_blocks_changed(changed: BlocksChanged) -> None:
    """Registered with ``players.social.BLOCKS_CHANGED``: once the block (or its end) commits, each of the
    blocker's open room sockets, on whatever device and process, reads whom it hides again and is sent its
    chat's history anew (without the blocked player's messages, or with them back)."""
    channels = tuple(Connection.objects.filter(player=changed.blocker).values_list("channel_name", flat=True))
    if channels:
        events.blocks_changed_on_commit(channels)


# --- retention -------------------------------------------------------------------------------------
PURGE_BATCH = 1000


def chat_delete_expired(*, now: datetime, keep: timedelta) -> int:
    """Delete the chat messages of every room closed more than ``keep`` before ``now``; how many.

    An open room keeps its chat, however old. Deleted in batches (one short transaction each), so a
    large backlog never holds a long lock; nothing to delete is a read only.
    """
    closed_rooms = Room.objects.filter(closed_at__lt=now - keep).values("pk")
    deleted = 0
    while True:
        batch = list(ChatMessage.objects.filter(room__in=closed_rooms).values_list("pk", flat=True)[:PURGE_BATCH])
        if not batch:
            return deleted
        deleted += ChatMessage.objects.filter(pk__in=batch).delete()[0]
