"""One error body for every refusal of the REST API: ``{"code", "message"}``.

Set as Django REST framework's ``EXCEPTION_HANDLER`` in ``config.settings``, so no view repeats it: a view
raises (a service's :class:`~common.errors.Refused`, a serializer's ``ValidationError``, DRF's own
exceptions) and this answers, a refusal's status by its code from ``common.errors.STATUS_OF_CODE``. A plain
Django view (an async stream, which DRF cannot serve) raises its refusal too: :class:`RefusalMiddleware`
answers it with the same body, status and headers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from common.errors import RateLimited, Refused, status_for
from config.inputs import form_read_message
from config.outages import PARTS, unreachable_part
from config.parsers import BadRequestBody

# What DRF puts in an exception's ``detail``: a message, or lists and dicts of them (validation errors).
Detail: TypeAlias = "exceptions.ErrorDetail | list[Detail] | dict[str, Detail]"

# What a query or body that fails its serializer (DRF's ValidationError) answers, as a malformed body does.
INVALID_CODE = "bad_request"


class Unavailable(exceptions.APIException):
    """A part the request needs (the database, the cache) is down: 503, naming the part."""

    status_code = status_for("unavailable")
    default_code = "unavailable"


class Refusal(exceptions.APIException):
    """A service's :class:`~common.errors.Refused` in DRF's terms: its code, its message, its status by code."""

    def __init__(self, refused: Refused) -> None:
        super().__init__(refused.message, refused.code)
        self.status_code = status_for(refused.code)


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:  # DRF's signature
    """Every refusal as ``{"code", "message"}``; a body Django refuses (too big, suspicious) is a 400 too,
    and a part the request needs being down (the database, the cache) is a 503 ``unavailable``.

    Django's own handling of those would log a traceback for a request that was merely refused; the
    refusal here is logged once, as one line, by ``django.request`` like any other 4xx.
    """
    refusal = _as_api_exception(exc)
    if refusal is None:
        return None  # not a refusal: Django answers 500 and logs the traceback, as it should
    response = exception_handler(refusal, dict(context))  # status, headers, and the transaction's rollback
    assert response is not None
    response.data = _body(refusal, exc)
    _retry_after(exc, response)
    return response


class RefusalMiddleware:
    """A :class:`~common.errors.Refused` raised by a view outside DRF (a plain or async Django view), answered
    as :func:`api_exception_handler` answers it in a REST view: the same body, status and ``Retry-After``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponseBase | None:
        if not isinstance(exc, Refused):
            return None  # anything else is Django's to answer (a page's 404, a bug's 500)
        refusal = Refusal(exc)
        response = JsonResponse(_body(refusal, exc), status=refusal.status_code)
        _retry_after(exc, response)
        return response


def _body(refusal: exceptions.APIException, exc: Exception) -> dict[str, object]:
    body: dict[str, object] = {"code": _code(refusal), "message": _message(refusal.detail)}
    if isinstance(exc, Refused) and exc.details:
        for key, value in exc.details.items():  # beside code and message, never instead of them
            body.setdefault(key, value)
    return body


def _retry_after(exc: Exception, response: HttpResponseBase) -> None:
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)


def _as_api_exception(exc: Exception) -> exceptions.APIException | None:
    """The refusal ``exc`` stands for, in DRF's terms; None when it is no refusal (a bug, an outage)."""
    if isinstance(exc, Refused):
        return Refusal(exc)
    if isinstance(exc, exceptions.ValidationError):
        return Refusal(Refused(INVALID_CODE, _message(exc.detail)))
    if isinstance(exc, RequestDataTooBig):  # over DATA_UPLOAD_MAX_MEMORY_SIZE: over the API's own limit too
        return BadRequestBody(_("The request body is larger than %(limit)s bytes.")
                              % {"limit": settings.API_MAX_BODY_BYTES})
    if isinstance(exc, (SuspiciousOperation, BadRequest)):
        return BadRequestBody(form_read_message(exc, _("Bad request.")))
    if isinstance(exc, exceptions.ParseError) and not isinstance(exc, BadRequestBody):
        return BadRequestBody(exc.detail)
    part = unreachable_part(exc)
    if part is not None:
        return Unavailable(str(PARTS[part]))
    if isinstance(exc, Http404):
        return exceptions.NotFound(*exc.args)
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied(*exc.args)
    return exc if isinstance(exc, exceptions.APIException) else None


def _code(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    return codes if isinstance(codes, str) else exc.default_code


def _message(detail: Detail) -> str:
    """One readable sentence from DRF's detail (a string, or a list or dict of them for validation)."""
    if isinstance(detail, dict):
        return "; ".join(f"{field}: {_message(value)}" for field, value in detail.items())
    if isinstance(detail, list):
        return " ".join(_message(item) for item in detail)
    return str(detail)
