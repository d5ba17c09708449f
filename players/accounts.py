"""Accounts: a device's guest player becomes an account, and an account brings its player to any device.

An account is a Django ``User`` (password hashed by Django's hashers, checked by the validators in
``AUTH_PASSWORD_VALIDATORS``) linked one-to-one to a :class:`~players.models.Player`. The player keeps its
id, so its rating, games and history stay with it.

Usernames are compared in one normal form, :func:`username_key` (NFKC, then casefolded): ``Ann``,
``ANN`` and ``Ann`` in fullwidth letters are one name. The player of an account stores that key, unique in
the database, so two spellings of one name can never both register, not even at the same moment.

Login attempts that fail are counted per username and address, and per address, in Django's cache;
too many within the window are refused with ``rate_limited`` (the API's login and the admin's,
:func:`login_throttle_check` and :func:`login_failure_count`). Registrations are counted per address
(:func:`registration_quota_take`).

Logging into an account on a device whose player is a guest replaces that guest on the device; the
guest's unfinished rooms would be out of reach from then on, so the layers above hear of it through
:data:`GUEST_REPLACED` (the rooms hand the guest's seats over to the account, or close the room)
in the login's transaction.

The ``session_*`` helpers at the end are the only code that touches the HTTP session for accounts.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import login, logout
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy
from rest_framework.request import Request

from common.errors import RateLimited, Refused
from common.hooks import Hook, OnError, Runs
from common.ratelimit import Quota, quota_take
from players.identity import session_attach, session_player
from players.models import Player
from players.services import clean_player_name, player_create

log = logging.getLogger(__name__)

USERNAME_PATTERN = re.compile(r"^[\w.-]{3,24}$")
# Failed logins allowed per (username, address) and per address alone within LOGIN_WINDOW.
LOGIN_FAILURES_PER_NAME = 5
LOGIN_FAILURES_PER_ADDRESS = 30
LOGIN_WINDOW = timedelta(minutes=15)



@dataclass(frozen=True, slots=True)
class GuestReplaced:
    """A device's ``guest`` player replaced by ``account``'s on login, at ``now``."""

    guest: Player
    account: Player
    now: datetime


# Inside the login's hand-over transaction: a handler that raises rolls the hand-over back.
GUEST_REPLACED: Hook[GuestReplaced] = Hook("guest replaced", runs=Runs.INSIDE_TRANSACTION,
                                           on_error=OnError.PROPAGATE)


TOO_MANY_FAILURES = gettext_lazy("Too many failed attempts.")


# --- usernames and passwords ---------------------------------------------------------------------
def clean_username(username: object) -> str:
    """A username as stored and shown: NFKC-normalised (as Django normalises usernames), trimmed, and
    then 3 to 24 letters, digits, ``.``, ``-`` or ``_``. Case is kept; :func:`username_key` ignores it.

    Raises:
        Refused(bad_username): anything else.
    """
    name = unicodedata.normalize("NFKC", username).strip() if isinstance(username, str) else ""
    if not USERNAME_PATTERN.fullmatch(name):
        raise Refused("bad_username", gettext("A username has 3 to 24 letters, digits, dots, dashes or underscores."))
    return name


def username_key(username: str) -> str:
    """The form that every spelling of one username shares: NFKC, casefolded, then NFKC again (casefolding
    can leave a few characters unnormalised). Fullwidth ``Ann`` and ``ann`` share one.
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def clean_password(password: object, *, username: str) -> str:
    """``password``, if ``AUTH_PASSWORD_VALIDATORS`` accept it for ``username``.

    Raises:
        Refused(weak_password): empty, or refused by a validator (the message says why).
    """
    if not isinstance(password, str) or not password:
        raise Refused("weak_password", gettext("Choose a password."))
    try:
        validate_password(password, user=User(username=username))
    except ValidationError as exc:
        raise Refused("weak_password", " ".join(exc.messages)) from None
    return password


# --- register ------------------------------------------------------------------------------------
def account_register(*, player: Player | None, username: object, password: object, now: datetime) -> Player:
    """Turn the device's ``player`` into an account (a new player named after the account if None).

    The player keeps its id, name, rating and history. Usernames are unique in their
    :func:`username_key` form (regardless of case and of compatibility forms such as fullwidth letters).

    Raises:
        Refused: bad_username, weak_password, name_taken, already_registered (the player has an account).
    """
    name = clean_username(username)
    key = username_key(name)
    if player is not None and player.user_id is not None:
        raise Refused("already_registered", gettext("This player already has an account: log out to make another."))
    # The user check also covers users without a player (made with createsuperuser, say).
    if Player.objects.filter(username_key=key).exists() or User.objects.filter(username__iexact=name).exists():
        raise Refused("name_taken", gettext("The username %(name)s is taken.") % {"name": name})
    secret = clean_password(password, username=name)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=name, password=secret)
            if player is None:
                player = player_create(name=clean_player_name(name), now=now)
            # Only a guest may be claimed: two registrations racing for one player cannot both win.
            claimed = Player.objects.filter(pk=player.pk, user__isnull=True).update(user=user, username_key=key)
            if not claimed:
                raise Refused("already_registered",
                              gettext("This player already has an account: log out to make another."))
    except IntegrityError:  # the same name (any spelling) registered at the same moment: the key is unique
        raise Refused("name_taken", gettext("The username %(name)s is taken.") % {"name": name}) from None
    player.user, player.username_key = user, key
    return player


def registration_quota_take(*, address: str, now: datetime) -> None:
    """Count one registration attempt of the client ``address``: at most
    ``REGISTRATIONS_PER_MINUTE_PER_ADDRESS`` a minute and ``REGISTRATIONS_PER_DAY_PER_ADDRESS`` a day.

    Counted in the cache as the login's failures are, so with Redis down it answers 503 as a login does.

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    quota_take(cache, [
        (Quota("registrations-by-address-minute", settings.REGISTRATIONS_PER_MINUTE_PER_ADDRESS, 60), address),
        (Quota("registrations-by-address-day", settings.REGISTRATIONS_PER_DAY_PER_ADDRESS, 86_400), address),
    ], now=now, message=gettext("Too many accounts registered from this address."))


# --- login ---------------------------------------------------------------------------------------
def _throttle_keys(name_key: str, address: str) -> tuple[tuple[str, int], ...]:
    """The failure counters of one attempt: (username key, address), then the address alone.

    Each kind has its own namespace, so no username (not even an empty one) shares the address's counter.
    """

    def counter(kind: str, text: str) -> str:
        return f"login-failures:{kind}:" + hashlib.sha256(text.encode()).hexdigest()

    return (
        (counter("name", f"{name_key}|{address}"), LOGIN_FAILURES_PER_NAME),
        (counter("address", address), LOGIN_FAILURES_PER_ADDRESS),
    )


def _live_failures(key: str, *, now: datetime) -> tuple[int, datetime] | None:
    """(failures, first failure) within the window that contains ``now``, or None."""
    stored = cache.get(key)
    if not isinstance(stored, tuple) or len(stored) != 2:
        return None
    count, since = int(stored[0]), datetime.fromtimestamp(float(stored[1]), tz=UTC)
    return None if now - since >= LOGIN_WINDOW else (count, since)


def login_throttle_check(username: object, address: str, *, now: datetime) -> None:
    """Refuse a login attempt for ``username`` from ``address`` while its failures are over the limit
    (:data:`LOGIN_FAILURES_PER_NAME` for the name with this address, :data:`LOGIN_FAILURES_PER_ADDRESS` for
    the address, within :data:`LOGIN_WINDOW`): for any password, the right one too.

    Raises:
        RateLimited: over the limit; ``retry_after`` is when the window lets one more attempt through.
    """
    _check_throttle(username_key(_login_name(username)), address, now=now)


def login_failure_count(username: object, address: str, *, now: datetime) -> None:
    """Count one failed login for ``username`` from ``address`` (the name's counter and the address's)."""
    _count_failure(username_key(_login_name(username)), address, now=now)


def login_success(username: object, address: str) -> None:
    """A login succeeded: clear the name's failures from this address (the address's stay)."""
    cache.delete(_throttle_keys(username_key(_login_name(username)), address)[0][0])


def _login_name(username: object) -> str:
    return unicodedata.normalize("NFKC", username).strip() if isinstance(username, str) else ""


def _check_throttle(name_key: str, address: str, *, now: datetime) -> None:
    for key, allowed in _throttle_keys(name_key, address):
        failures = _live_failures(key, now=now)
        if failures is not None and failures[0] >= allowed:
            wait = LOGIN_WINDOW - (now - failures[1])
            raise RateLimited(max(1, int(wait.total_seconds() + 0.999)), message=str(TOO_MANY_FAILURES))


def _count_failure(name_key: str, address: str, *, now: datetime) -> None:
    # Read-then-write is not atomic across processes; at worst a few extra attempts slip through.
    for key, _allowed in _throttle_keys(name_key, address):
        count, since = _live_failures(key, now=now) or (0, now)
        cache.set(key, (count + 1, since.timestamp()), timeout=int(LOGIN_WINDOW.total_seconds()) + 60)


def _account_player(name: str) -> Player | None:
    """The account player this username names: its exact (normalised) spelling first, then its key.

    The exact spelling comes first for the accounts registered before keys were unique: where two
    shared a key, the newer one has none (see migration players 0003) and is found by its own name.
    """
    if not name:
        return None
    exact = Player.objects.select_related("user").filter(user__username=name).first()
    return exact or Player.objects.select_related("user").filter(username_key=username_key(name)).first()


def account_login(
    *, username: object, password: object, address: str, now: datetime, guest: Player | None = None
) -> Player:
    """The player of the account with this username (any spelling of it: see :func:`username_key`)
    and password.

    ``address`` is the client's IP address, for rate limiting. Each failed attempt counts once against
    the username (with this address) and once against the address; a successful login clears the
    username's count. ``guest`` is the device's player before the login: if it is a guest (no account)
    other than the account's player, its rooms are handed over (:func:`guest_hand_over`).

    Raises:
        Refused: bad_credentials (unknown username, wrong password, or an inactive account; the
            message does not say which), rate_limited (a :class:`RateLimited` with ``retry_after``).
    """
    name = _login_name(username)
    key = username_key(name)
    secret = password if isinstance(password, str) else ""
    _check_throttle(key, address, now=now)
    account = _account_player(name)
    user = account.user if account is not None else None
    if user is None:
        make_password(secret)  # as slow as checking a real password, so timing tells nothing
        ok = False
    else:
        ok = user.check_password(secret) and user.is_active
    if account is None or not ok:
        _count_failure(key, address, now=now)
        raise Refused("bad_credentials", gettext("That username and password do not match an account."))
    cache.delete(_throttle_keys(key, address)[0][0])
    if guest is not None and guest.user_id is None and guest.pk != account.pk:
        guest_hand_over(guest=guest, account=account, now=now)
    return account


def guest_hand_over(*, guest: Player, account: Player, now: datetime) -> None:
    """The device's ``guest`` is replaced by ``account``'s player: :data:`GUEST_REPLACED`'s handlers hand
    its rooms over, in one transaction. The guest player itself stays, with its finished games and rating."""
    with transaction.atomic():
        GUEST_REPLACED.emit(GuestReplaced(guest=guest, account=account, now=now))
    log.info("guest %s replaced by account player %s on login", guest.pk, account.pk, extra={"player": account.pk})


# --- the session (the only HTTP-aware part) ------------------------------------------------------
def session_sign_in(request: HttpRequest | Request, player: Player) -> None:
    """Make ``player`` (an account's) this device's player, and sign the session in as its user.

    Django's ``login`` gives the session a new key and a new CSRF token (no session fixation).
    """
    assert player.user is not None
    login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
    session_attach(request.session, player)


def session_sign_out(request: HttpRequest | Request) -> None:
    """Forget the session entirely: the device has no player until it makes or logs into one.

    Raises:
        Refused(guest_player): the device's player is a guest; forgetting it would lose it for good.
    """
    player = session_player(request.session)
    if player is not None and player.user_id is None:
        raise Refused("guest_player", gettext("This player has no account yet: register first, or it would be lost."))
    logout(request)
