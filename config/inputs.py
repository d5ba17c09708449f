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
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase

from common.errors import Refused, status_for
from common.text import refuse_bad_text

FORM = "application/x-www-form-urlencoded"


def refusal_response(refused: Refused) -> JsonResponse:
    """The API's one error body for ``refused``, with its status from ``common.errors.STATUS_OF_CODE``."""
    return JsonResponse({"code": refused.code, "message": refused.message}, status=status_for(refused.code))


def input_check(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable[[HttpRequest], HttpResponseBase]:
    """The middleware: refuse a bad path, query or form body before the rest of the chain runs."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        try:
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
        except (BadRequest, SuspiciousOperation) as error:  # Django's own sentences, which echo nothing
            raise Refused("bad_request", str(error) or "The form body cannot be read.") from None
        for key, values in request.POST.lists():
            refuse_bad_text([key, *values], where="the form")
