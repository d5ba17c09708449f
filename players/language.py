"""The language a person reads the site in: one choice for a page, an API call and a websocket.

In order: the player's ``language`` preference (an account's follows it to every device; a guest's stays
with the guest's player), else the language cookie (Django's ``set_language``, the footer's switcher),
else the browser's ``Accept-Language``, else English. The URL never says it. :func:`visitor_language`
chooses for an HTTP request or a websocket's scope; ``config.language`` activates it for every request,
``live.socket.Socket`` around every message a socket handles. Texts for somebody else (an
email, a notification) take :func:`language_of` their recipient, which is why an account registered
keeps the language its device asked for then (:func:`device_language`) unless its player chose one.
"""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header
from rest_framework.request import Request

from common.asgi import Scope
from players.models import Player, Preferences

CODES: tuple[str, ...] = tuple(code for code, _name in settings.LANGUAGES)


def supported(code: object) -> str | None:
    """``code`` if it is one of the site's languages (``settings.LANGUAGES``), else None."""
    return code if isinstance(code, str) and code in CODES else None


def stored_language(player_id: str | UUID | None) -> str | None:
    """The ``language`` preference of the player ``player_id`` (one query), or None when it chose none."""
    if not player_id:
        return None
    try:
        values = Preferences.objects.filter(player_id=player_id).values_list("values", flat=True).first()
    except (ValueError, TypeError, ValidationError):  # a malformed id in an old session: no player
        return None
    return preferred_language(values)


def preferred_language(values: object) -> str | None:
    """The ``language`` of a player's stored preferences' ``values`` (None: none chosen, or no row)."""
    return supported(values.get("language")) if isinstance(values, dict) else None


def choose_language(*, preference: str | None, cookie: str | None, accept_language: str) -> str:
    """The preference, else the cookie's language, else the first of ``Accept-Language`` the site has (a
    regional variant counts as its language: ``de-AT`` is ``de``), else English."""
    return supported(preference) or asked_language(cookie=cookie, accept_language=accept_language) or str(
        settings.LANGUAGE_CODE)


def asked_language(*, cookie: str | None, accept_language: str) -> str | None:
    """The language the device asks for: the cookie's, else the first of ``Accept-Language`` the site has;
    None when it asks for none of the site's (English then, by default, not by choice)."""
    if supported(cookie) is not None:
        return cookie
    for asked, _quality in parse_accept_lang_header(accept_language):  # Django's parser: sorted by q, bounded
        if asked == "*":
            break
        try:
            return supported(get_supported_language_variant(asked)) or str(settings.LANGUAGE_CODE)
        except LookupError:
            continue
    return None


def visitor_language(source: HttpRequest | Scope, player_id: str | UUID | None) -> str:
    """The language of the person behind ``source`` (an HTTP request, or a websocket's ASGI scope) whose
    device's player is ``player_id`` (None: none yet). Reads the player's preference from the database
    when there is a player: call it where database calls may run."""
    return visitor_language_of(source, preference=stored_language(player_id))


def visitor_language_of(source: HttpRequest | Scope, *, preference: str | None) -> str:
    """:func:`visitor_language` for a player whose ``language`` preference the caller read already."""
    cookie, accept = _device_asks(source)
    return choose_language(preference=preference, cookie=cookie, accept_language=accept)


def device_language(source: HttpRequest | Request | Scope) -> str | None:
    """The language the device behind ``source`` asks for (its cookie, its ``Accept-Language``), None when
    none of the site's: what a new account keeps as its preference (``players.preferences.language_keep``)."""
    cookie, accept = _device_asks(source)
    return asked_language(cookie=cookie, accept_language=accept)


def _device_asks(source: HttpRequest | Request | Scope) -> tuple[str | None, str]:
    """The language cookie and the ``Accept-Language`` header of ``source`` (a request, Django's or DRF's,
    or a websocket's scope)."""
    cookies: Mapping[str, str]
    if isinstance(source, dict):
        headers = {name: value.decode("latin-1") for name, value in source.get("headers", [])}
        cookies, accept = parse_cookie(headers.get(b"cookie", "")), headers.get(b"accept-language", "")
    else:
        cookies, accept = source.COOKIES, str(source.META.get("HTTP_ACCEPT_LANGUAGE", ""))
    return cookies.get(settings.LANGUAGE_COOKIE_NAME), accept


def language_of(player: Player | str | UUID | None) -> str:
    """The language to write to ``player`` (a player or its id) in when they are not the one asking (an
    email, a notification delivered live): their preference, else English."""
    return stored_language(player.pk if isinstance(player, Player) else player) or str(settings.LANGUAGE_CODE)
