"""HTTP routes: config's own (the health check, the metrics, the admin, the schema), then every app's
routes from its own ``urls.py``: the REST API under /api/, the web pages at the root."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

import config.openapi  # noqa: F401  (registers the schema's extensions)
from config.health import health
from config.metrics import metrics

handler500 = "config.errors.server_error"  # a part that is down: 503 naming it, not 500

urlpatterns = [
    path("api/health", health, name="health"),
    path("metrics", metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/", include("players.urls")),
    path("", include("accounts.urls")),
    path("", include("moderation.urls")),
    path("api/", include("bots.urls")),
    path("api/", include("notifications.urls")),
    path("api/", include("correspondence.urls")),
    path("api/", include("lobby.urls")),  # before games: games/live is not a game's id
    path("api/", include("games.urls")),
    path("api/", include("study.urls")),
    path("api/", include("tournaments.urls")),
    path("api/", include("ratings.urls")),
    path("api/", include("puzzles.urls")),
    path("api/", include("arcade.urls")),
    path("", include("frontend.urls")),
]
