"""How the OpenAPI schema (``/api/schema/``) describes what drf-spectacular cannot work out alone.

Imported by ``config.urls`` so the extensions are registered before any schema is generated; :class:`ApiSchema`
is the REST framework's ``DEFAULT_SCHEMA_CLASS``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorOut(serializers.Serializer[Any]):
    """The API's one error body (``config.api``): every 4xx and 5xx answer of the schema has it."""

    code = serializers.CharField(help_text="A stable machine code; its status is by code (docs/protocol.md).")
    message = serializers.CharField(help_text="One sentence a person can read.")


class ApiSchema(AutoSchema):
    """drf-spectacular's schema, with :class:`ErrorOut` as the body of every error answer.

    A view names the codes an error status carries, as a string (``404: "no_room"``) or an
    ``OpenApiResponse`` without a body; the one error body is given here, so no view names a serializer for it.
    """

    def _get_response_for_code(  # drf-spectacular leaves it unannotated: what a response may be is its own
        self, serializer: Any, status_code: str, media_types: Any = None, direction: Any = "response"
    ) -> dict[str, Any]:
        if status_code.isdigit() and int(status_code) >= 400:
            if isinstance(serializer, str):
                serializer = OpenApiResponse(ErrorOut, description=serializer)
            elif serializer is None:
                serializer = OpenApiResponse(ErrorOut)
            elif isinstance(serializer, OpenApiResponse) and serializer.response is None:
                serializer = OpenApiResponse(ErrorOut, description=serializer.description, examples=serializer.examples)
        response: dict[str, Any] = super()._get_response_for_code(  # type: ignore[no-untyped-call]  # unannotated
            serializer, status_code, media_types, direction
        )
        return response


class DeviceSessionScheme(OpenApiAuthenticationExtension):
    """The device's session cookie (``players.auth.DeviceSessionAuthentication``); writes also need X-CSRFToken."""

    target_class = "players.auth.DeviceSessionAuthentication"
    name = "deviceSession"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": "The device's session: the device is the player. Unsafe methods also need the "
            "X-CSRFToken header carrying the csrftoken cookie.",
        }


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """A personal access token (``players.auth.BearerTokenAuthentication``): the bot and challenge endpoints."""

    target_class = "players.auth.BearerTokenAuthentication"
    name = "accessToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer",
                "description": "A personal access token (POST /api/accounts/tokens), docs/bots.md."}
