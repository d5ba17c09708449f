"""How the OpenAPI schema (``/api/schema/``) describes what drf-spectacular cannot work out alone.

Imported by ``config.urls`` so the extensions are registered before any schema is generated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema


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
