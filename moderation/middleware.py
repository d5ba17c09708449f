"""A warned player sees the warning on their next page: a page request (not the API, the admin, static
files or the warning page itself) of a device whose player has a warning not yet acknowledged is sent to
``/moderation/warning`` first, and comes back once they acknowledge it. One indexed query per page
view of a device with a player; none for the API."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from moderation.services import pending_warning
from players.identity import SESSION_KEY

WARNING_PATH = "/moderation/warning"
NOT_PAGES = ("/api/", "/admin/", "/static/", "/ws/", "/metrics", "/favicon", WARNING_PATH)


class WarningMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and not request.path.startswith(NOT_PAGES):
            player_id = request.session.get(SESSION_KEY)
            if player_id and pending_warning(player_id) is not None:
                return HttpResponseRedirect(f"{WARNING_PATH}?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)
