"""Who is asking: the device is the player (its session cookie holds the player's id); the address is
the client's, for per-address limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from rest_framework.request import Request

from common.hooks import Hook, OnError, Runs
from players.models import Player

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


def session_player(session: SessionBase | None) -> Player | None:
    """The player this session (device) belongs to, or None before one exists.

    A session signed into an account whose password has changed since (a reset, a closed account) has
    no player any more: Django's session hash of the password no longer matches, as for its own users.
    """
    player_id = session.get(SESSION_KEY) if session is not None else None
    if not player_id:
        return None
    try:
        player = Player.objects.select_related("user").filter(pk=player_id).first()
    except (ValueError, TypeError, ValidationError):  # a malformed id in an old session: no player
        return None
    signed = session.get(HASH_SESSION_KEY) if session is not None else None
    if player is not None and player.user is not None and signed is not None and not constant_time_compare(
        signed, player.user.get_session_auth_hash()
    ):
        return None
    return player


def device_player(session_key: str | None) -> Player | None:
    """The player of the device whose session cookie is ``session_key`` (a websocket's), or None. The
    session is read here, in the caller's database thread, and not kept."""
    if not session_key:
        return None
    return session_player(import_module(settings.SESSION_ENGINE).SessionStore(session_key))


def session_attach(session: SessionBase, player: Player) -> None:
    """Make ``player`` this device's player; :data:`DEVICE_ATTACHED`'s handlers hear of it."""
    session[SESSION_KEY] = str(player.id)
    DEVICE_ATTACHED.emit(DeviceAttached(session=session, player=player))


def client_address(request: HttpRequest | Request) -> str:
    """The client's IP address, as the server saw it (``REMOTE_ADDR``).

    Never read from a forwarded-for header here: the client can write anything in it. Behind a proxy
    or load balancer, daphne's ``--proxy-headers`` puts the address the proxy vouches for in
    ``REMOTE_ADDR`` (see README, deploying).
    """
    return str(request.META.get("REMOTE_ADDR") or "unknown")
