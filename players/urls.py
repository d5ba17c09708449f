"""The players' routes, included under /api/ by config.urls: the session, accounts, preferences, tokens,
follows and blocks, the search by name."""

from django.urls import path

from players.social_views import BlockView, FollowView, MyBlockedView, PlayerSearchView
from players.token_views import TokensView, TokenView
from players.views import LoginView, LogoutView, PreferencesView, RegisterView, SessionView

urlpatterns = [
    path("session", SessionView.as_view(), name="session"),
    path("accounts/register", RegisterView.as_view(), name="account-register"),
    path("accounts/login", LoginView.as_view(), name="account-login"),
    path("accounts/logout", LogoutView.as_view(), name="account-logout"),
    path("preferences", PreferencesView.as_view(), name="preferences"),
    path("accounts/tokens", TokensView.as_view(), name="account-tokens"),
    path("accounts/tokens/<str:token_id>", TokenView.as_view(), name="account-token"),
    path("players", PlayerSearchView.as_view(), name="players-search"),
    path("players/<str:player_id>/follow", FollowView.as_view(), name="player-follow"),
    path("players/<str:player_id>/block", BlockView.as_view(), name="player-block"),
    path("my/blocked", MyBlockedView.as_view(), name="my-blocked"),
]
