"""What every request's address and form body are held to before any other middleware reads them.

- Its path and query, decoded, may not hold a NUL character or a lone surrogate (``common.text``): a
  path parameter (``/api/challenge/%00/show``) or a query value would otherwise reach a database lookup
  that PostgreSQL refuses with a 500. Answered 400 ``bad_text`` without echoing the text.
- A form body Django cannot read (``application/x-www-form-urlencoded`` in another charset than UTF-8,
  too many fields, too big) is answered 400 ``bad_request`` here, once. Left to Django, the
  CSRF check reads the form, the read raises, and the 400 page Django renders for it re-runs the CSRF
  check, which reads the form again: daphne answered its own 500 and logged some 43 KB of chained
  tracebacks per request. Here the form is read first, inside a ``try``: one 400 and the one log line
  ``django.request`` writes for every 4xx. (A multipart body is left to Django, which marks a failed
  parse so that it is not tried twice, and is read as a stream: reading it here would leave DRF nothing.)

This runs before the session is read, so a refusal here is in the language of the language cookie or of
``Accept-Language`` (``players.language.visitor_language`` without a player): the player's preference
would need the session and the database, which a request refused for its address should not reach.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.translation import gettext as _

from common.errors import Refused, status_for
from common.text import refuse_bad_text
from players.language import visitor_language

FORM = "application/x-www-form-urlencoded"


def refusal_response(refused: Refused) -> JsonResponse:
    """The API's one error body for ``refused``, with its status from ``common.errors.STATUS_OF_CODE``."""
    return JsonResponse({"code": refused.code, "message": refused.message}, status=status_for(refused.code))


def input_check(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable[[HttpRequest], HttpResponseBase]:
    """The middleware: refuse a bad path, query or form body before the rest of the chain runs."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        try:
            with translation.override(visitor_language(request, None)):  # no player: no database query
                check_request(request)
        except Refused as refused:
            return refusal_response(refused)
        return get_response(request)

    return middleware


def check_request(request: HttpRequest) -> None:
    """Raises Refused: bad_text (the path or query), bad_request (a form body that cannot be read)."""
    refuse_bad_text(request.path, where="the address")
    for key, values in request.GET.lists():
        refuse_bad_text([key, *values], where="the query")
    if request.method == "POST" and request.content_type == FORM:
        try:
            request.POST  # noqa: B018  (read it now: later readers get it parsed, or its refusal here)
        except (BadRequest, SuspiciousOperation) as error:
            raise Refused("bad_request", form_read_message(error, _("The form body cannot be read."))) from None
        for key, values in request.POST.lists():
            refuse_bad_text([key, *values], where="the form")


def form_read_message(error: BadRequest | SuspiciousOperation, otherwise: str) -> str:
    """What a person reads for Django's refusal to read a body (its own sentences are English only and
    name its settings): too big, too many fields, a form not in UTF-8; ``otherwise`` for any other."""
    if isinstance(error, RequestDataTooBig) and settings.DATA_UPLOAD_MAX_MEMORY_SIZE is not None:
        return _("The request body is larger than %(limit)s bytes.") % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    if isinstance(error, TooManyFieldsSent) and settings.DATA_UPLOAD_MAX_NUMBER_FIELDS is not None:
        return _("The form has more than %(limit)s fields.") % {"limit": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
    if isinstance(error, BadRequest) and "UTF-8" in str(error):  # Django's one BadRequest of a form's read
        return _("A form body must be encoded in UTF-8.")
    return otherwise
