"""The channel layer's messages: what a committed change tells the sockets and streams of every process,
as dataclasses, encoded and decoded here and nowhere else.

Each app declares its own kinds in a module of its own (the rooms' and the lobby's in
``lobby.protocol.messages``, the accounts' streams' in ``bots.messages``, the arenas' in
``tournaments.messages``, the health check's in ``config.health``): a frozen dataclass subclassing
:class:`Message`, with its ``TYPE``, registered with :func:`kind` as its module is imported (each app's
``AppConfig.ready`` imports it, so every process decodes every kind). Services queue them as events
(:mod:`live.events`); the runtime encodes each once, when it hands it to its loop's outbox; a socket
(``live.socket.Socket``) or a bot stream (``bots.streams.base.Listener``) decodes what it receives and
reads it by attribute.

On the wire (to Redis, through msgpack) a message is the dict the channel layer carries: its ``type``
names the consumer handler that receives it (``room.move`` -> ``room_move``, as Channels dispatches), then
each field by name, but for a field that is None, left out (its default). A group send reaches every
socket of a process as one dict (``config.channel_layer``); the last one decoded is kept, so a move to a
room of 300 is decoded once in each process, not 300 times.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar, cast


class UnknownMessage(ValueError):
    """A dict from the channel layer whose ``type`` is no registered message's."""


class Message:
    """The base of every message kind (a frozen, slotted dataclass with a ``TYPE``, registered with :func:`kind`)."""

    __slots__ = ()
    TYPE: ClassVar[str]


M = TypeVar("M", bound=type[Message])

# Each kind by its type, with its fields' names and whether each must be on the wire (it has no default).
# Written at import time (each app's messages module), read from any thread.
KINDS: dict[str, tuple[type[Message], tuple[tuple[str, bool], ...]]] = {}
_FIELDS: dict[type[Message], tuple[str, ...]] = {}


def kind(cls: M) -> M:
    """Register the message kind ``cls`` (a class decorator, above ``@dataclass``).

    Raises:
        ValueError: another kind has its ``TYPE`` already.
    """
    found = KINDS.get(cls.TYPE)
    if found is not None and found[0] is not cls:
        raise ValueError(f"two message kinds have the type {cls.TYPE!r}: {found[0].__qualname__}, {cls.__qualname__}")
    dataclass_fields = dataclasses.fields(cast(Any, cls))  # a dataclass (see Message)
    fields = tuple((field.name, field.default is dataclasses.MISSING) for field in dataclass_fields)
    KINDS[cls.TYPE] = (cls, fields)
    _FIELDS[cls] = tuple(name for name, _ in fields)
    return cls


def encode(message: Message) -> dict[str, Any]:
    """The dict the channel layer carries for ``message`` (its fields that are None left out)."""
    encoded: dict[str, Any] = {"type": message.TYPE}
    for name in _FIELDS[type(message)]:
        value = getattr(message, name)
        if value is not None:
            encoded[name] = value
    return encoded


# The last dict decoded and its message (the same dict reaches every socket of a process; holding it keeps
# its id from being reused). A tuple, read and replaced whole: safe from any thread.
_last: tuple[Mapping[str, Any], Message] | None = None


def decode(message: Mapping[str, Any]) -> Message:
    """The message the channel layer carried as ``message``.

    Raises:
        UnknownMessage: its ``type`` is no registered kind's, or a field without a default is missing.
    """
    global _last
    last = _last
    if last is not None and last[0] is message:
        return last[1]
    kind_fields = KINDS.get(message.get("type", ""))
    if kind_fields is None:
        raise UnknownMessage(f"no channel-layer message has the type {message.get('type')!r}")
    cls, fields = kind_fields
    try:
        values: list[Any] = [message[name] if required else message.get(name) for name, required in fields]
    except KeyError as exc:
        raise UnknownMessage(f"a {cls.TYPE} message without its {exc.args[0]!r}") from None
    decoded = cls(*values)
    _last = (message, decoded)
    return decoded
