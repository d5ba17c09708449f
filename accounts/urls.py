"""The account's routes: the REST API (under /api/accounts/) and its pages (under /accounts/)."""

from django.urls import path

from accounts import pages, views

api = [
    path("api/accounts/me", views.MeView.as_view(), name="account-me"),
    path("api/accounts/me/export", views.export, name="account-export"),
    path("api/accounts/email", views.EmailView.as_view(), name="account-email"),
    path("api/accounts/password", views.PasswordView.as_view(), name="account-password"),
    path("api/accounts/password/reset", views.ResetView.as_view(), name="account-password-reset"),
    path("api/accounts/password/reset/confirm", views.ResetConfirmView.as_view(),
         name="account-password-reset-confirm"),
]
pages_ = [
    path("accounts/confirm/<str:token>", pages.confirm, name="account-confirm"),
    path("accounts/reset", pages.reset_ask, name="account-reset-ask"),
    path("accounts/reset/<str:token>", pages.reset, name="account-reset"),
    path("accounts/delete", pages.close, name="account-delete"),
    path("accounts/unsubscribe/<str:token>", pages.unsubscribe, name="account-unsubscribe"),
]
urlpatterns = [*api, *pages_]
