"""Every request in its reader's language: the choice of :func:`players.language.visitor_language`
(the player's preference, the language cookie, ``Accept-Language``, English), activated for the rest
of the chain and the view, as ``request.LANGUAGE_CODE`` too.

The answer says which language it is in (``Content-Language``) and that it varies with
``Accept-Language``; it varies with the cookies (the session's, the language cookie) already wherever
the session is read.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_vary_headers

from players.identity import session_preferences
from players.language import preferred_language, visitor_language_of


def language_middleware(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """The middleware (after the session's): choose, activate, and say so in the answer."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        # The player's preferences are read with the player (players.identity), once for the whole request.
        preference = preferred_language(session_preferences(request.session))
        language = visitor_language_of(request, preference=preference)
        request.LANGUAGE_CODE = language
        with translation.override(language):
            response = get_response(request)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        return response

    return middleware
