"""HTTP routes."""

from django.urls import path

from config.health import health

urlpatterns = [
    path("api/health", health, name="health"),
]
