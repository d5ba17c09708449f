"""The answer to a request that failed outside a REST view's own handling (``handler500``).

A part that is down (the database while the session is saved, say) is answered 503 with the API's one
error body, naming the part; anything else is Django's own 500.
"""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.views.defaults import server_error as django_server_error

from common.errors import status_for
from config.outages import PARTS, unreachable_part
from players.language import visitor_language


def server_error(request: HttpRequest) -> HttpResponse:
    part = unreachable_part(sys.exc_info()[1])  # Django calls this inside the ``except`` of the failure
    if part is None:
        return django_server_error(request)
    # The request's language when the language middleware chose it; else (a failure outside it, the session's
    # save) the cookie's or Accept-Language's: the player's preference would need the database.
    language = getattr(request, "LANGUAGE_CODE", None) or visitor_language(request, None)
    with translation.override(language):
        message = str(PARTS[part])
    return JsonResponse({"code": "unavailable", "message": message}, status=status_for("unavailable"))
