"""Who is asking: the device is the player (its session cookie holds the player's id); the address is
the client's, for per-address limits.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from rest_framework.request import Request

from common.hooks import Hook, OnError, Runs
from common.rows import Rows
from players.models import Player, Preferences

SESSION_KEY = "player_id"


@dataclass(frozen=True, slots=True)
class DeviceAttached:
    """The device whose session this is now has ``player`` as its player (a new guest, a registration, a
    login): what the layers above kept in the session for the device may now be the player's too."""

    session: SessionBase
    player: Player


# At once, in the caller's request: a handler that raises fails it (and rolls back its transaction, if any).
DEVICE_ATTACHED: Hook[DeviceAttached] = Hook("device attached", runs=Runs.INSIDE_TRANSACTION,
                                             on_error=OnError.PROPAGATE)


_PLAYERS, _USERS, _PREFERENCES = Rows(Player), Rows(get_user_model()), Rows(Preferences)
# Where a session keeps what it read of its player during its request: (player id, player, preference).
_READ_ATTRIBUTE = "_players_identity"


def _player_read(player_id: object) -> tuple[Player | None, Any]:  # Any: the preferences' JSON
    """The player ``player_id`` with its account (``player.user``) and its stored preferences' values, in
    one statement written once (the request's every other read of it, and the language's, share it)."""
    players, users, preferences = _PLAYERS, _USERS, _PREFERENCES
    sql = players.statement("identity", lambda: (
        f"SELECT {players.columns('p')}, {users.columns('u')}, pr.{preferences.quoted('values')} "
        f"FROM {players.quoted(players.table)} p "
        f"LEFT JOIN {users.quoted(users.table)} u ON u.{users.quoted('id')} = p.{players.quoted('user_id')} "
        f"LEFT JOIN {preferences.quoted(preferences.table)} pr "
        f"ON pr.{preferences.quoted('player_id')} = p.{players.quoted('id')} WHERE p.{players.quoted('id')} = %s"))
    rows = players.execute(sql, [players.prep("id", player_id)])
    if not rows:
        return None, None
    row = rows[0]
    player = players.load(row)
    user = users.load(row, players.width) if player.user_id is not None else None
    Player.user.field.set_cached_value(player, user)  # as select_related("user") would
    values = row[players.width + users.width]
    return player, None if values is None else preferences.load_field("values", values)


def _session_read(session: SessionBase | None) -> tuple[Player | None, Any]:  # Any: as above
    """What :func:`_player_read` reads of the session's player (None, None before it has one), read once
    per session object (a request's): kept on it while its player id stays what it was."""
    player_id = session.get(SESSION_KEY) if session is not None else None
    if not player_id or session is None:
        return None, None
    kept = getattr(session, _READ_ATTRIBUTE, None)
    if kept is not None and kept[0] == player_id:
        return kept[1], kept[2]
    try:
        player, values = _player_read(player_id)
    except (ValueError, TypeError, ValidationError):  # a malformed id in an old session: no player
        player, values = None, None
    with contextlib.suppress(AttributeError):  # a plain mapping (a test's) keeps nothing
        setattr(session, _READ_ATTRIBUTE, (player_id, player, values))
    return player, values


def session_player(session: SessionBase | None) -> Player | None:
    """The player this session (device) belongs to, or None before one exists.

    A session signed into an account whose password has changed since (a reset, a closed account) has
    no player any more: Django's session hash of the password no longer matches, as for its own users.
    Read once per session object (one request's), with its preferences (:func:`session_preferences`).
    """
    player, _values = _session_read(session)
    signed = session.get(HASH_SESSION_KEY) if session is not None else None
    if player is not None and player.user is not None and signed is not None and not constant_time_compare(
        signed, player.user.get_session_auth_hash()
    ):
        return None
    return player


def session_preferences(session: SessionBase | None) -> Any:  # Any: the preferences' JSON
    """The stored preferences' values of the session's player (a dict; None when it has none, or no
    player), read with the player by :func:`session_player` (one statement for both)."""
    return _session_read(session)[1]


def device_player(session_key: str | None) -> Player | None:
    """The player of the device whose session cookie is ``session_key`` (a websocket's), or None. The
    session is read here, in the caller's database thread, and not kept."""
    return device_identity(session_key)[0]


def device_identity(session_key: str | None) -> tuple[Player | None, Any]:  # Any: the preferences' JSON
    """:func:`device_player` and its stored preferences' values (:func:`session_preferences`), read together."""
    if not session_key:
        return None, None
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return session_player(session), session_preferences(session)


def session_attach(session: SessionBase, player: Player) -> None:
    """Make ``player`` this device's player; :data:`DEVICE_ATTACHED`'s handlers hear of it."""
    session[SESSION_KEY] = str(player.id)
    with contextlib.suppress(AttributeError):  # read again when asked: the hooks below may change it
        setattr(session, _READ_ATTRIBUTE, None)
    DEVICE_ATTACHED.emit(DeviceAttached(session=session, player=player))


def client_address(request: HttpRequest | Request) -> str:
    """The client's IP address, as the server saw it (``REMOTE_ADDR``).

    Never read from a forwarded-for header here: the client can write anything in it. Behind a proxy
    or load balancer, daphne's ``--proxy-headers`` puts the address the proxy vouches for in
    ``REMOTE_ADDR`` (see README, deploying).
    """
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def socket_address(scope: Mapping[str, Any]) -> str | None:
    """A websocket's client IP address, as the server saw it: the ASGI scope's ``client`` (daphne's
    ``--proxy-headers`` puts the address nginx vouches for there, as it does ``REMOTE_ADDR`` for
    :func:`client_address`); None when the scope has none (a test's socket, a Unix socket)."""
    client = scope.get("client")
    return str(client[0]) if client else None
