"""The notifications' routes, included under /api/ by config.urls."""

from django.urls import path

from notifications import views

urlpatterns = [
    path("notifications", views.NotificationsView.as_view(), name="notifications"),
    path("notifications/read", views.NotificationsReadView.as_view(), name="notifications-read"),
]
