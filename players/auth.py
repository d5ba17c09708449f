"""REST authentication: the session cookie identifies the device, and every write carries a CSRF token.

DRF's own SessionAuthentication checks CSRF only for logged-in users; guests write too (create rooms,
rename themselves), so this class checks it on every unsafe request.
"""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request


class DeviceSessionAuthentication(SessionAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        self.enforce_csrf(request)
        return super().authenticate(request)
