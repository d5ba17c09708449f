"""HTTP routes: the REST API under /api/, the web pages at the root."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

import config.openapi  # noqa: F401  (registers the schema's extensions)
from config.health import health
from config.metrics import metrics
from config.parsers import RecordBodyParser
from games.views import GameAnalysisView, GameDetailView, PlayerDetailView
from lobby.rooms.views import LiveGamesView, MyFollowingView, RoomDetailView, RoomsView, SeatView, SessionView
from players.social_views import BlockView, FollowView, MyBlockedView, PlayerSearchView
from players.token_views import TokensView, TokenView
from players.views import LoginView, LogoutView, PreferencesView, RegisterView
from study.views import AnalysisView, ExplorerView, GameRecordView, PlayerGamesView, RecordParseView, player_games_text
from tournaments.views import ArenaActionView, ArenaDetailView, ArenaGamesView, ArenasView

handler500 = "config.errors.server_error"  # a part that is down: 503 naming it, not 500

urlpatterns = [
    path("api/health", health, name="health"),
    path("metrics", metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/session", SessionView.as_view(), name="session"),
    path("api/accounts/register", RegisterView.as_view(), name="account-register"),
    path("api/accounts/login", LoginView.as_view(), name="account-login"),
    path("api/accounts/logout", LogoutView.as_view(), name="account-logout"),
    path("", include("accounts.urls")),
    path("", include("moderation.urls")),
    path("api/preferences", PreferencesView.as_view(), name="preferences"),
    path("api/accounts/tokens", TokensView.as_view(), name="account-tokens"),
    path("api/accounts/tokens/<str:token_id>", TokenView.as_view(), name="account-token"),
    path("api/", include("bots.urls")),
    path("api/", include("notifications.urls")),
    path("api/", include("correspondence.urls")),
    path("api/rooms", RoomsView.as_view(), name="rooms"),
    path("api/rooms/<str:code>", RoomDetailView.as_view(), name="room"),
    path("api/rooms/<str:code>/seat", SeatView.as_view(), name="room-seat"),
    path("api/games/live", LiveGamesView.as_view(), name="games-live"),  # before the game id route
    path("api/games/<str:game_id>", GameDetailView.as_view(), name="game"),
    path("api/games/<str:game_id>/analysis", GameAnalysisView.as_view(), name="game-analysis"),
    path("api/games/<str:game_id>/record", GameRecordView.as_view(), name="game-record"),
    path("api/analysis", AnalysisView.as_view(), name="analysis"),
    path("api/explorer", ExplorerView.as_view(), name="explorer"),
    path("api/records/parse", RecordParseView.as_view(parser_classes=[RecordBodyParser]), name="records-parse"),
    path("api/tournaments", ArenasView.as_view(), name="tournaments"),
    path("api/tournaments/<int:arena_id>", ArenaDetailView.as_view(), name="tournament"),
    path("api/tournaments/<int:arena_id>/games", ArenaGamesView.as_view(), name="tournament-games"),
    *(
        path(f"api/tournaments/<int:arena_id>/{action}", ArenaActionView.as_view(action=action),
             name=f"tournament-{action}")
        for action in ("join", "pause", "withdraw")
    ),
    path("api/players", PlayerSearchView.as_view(), name="players-search"),
    path("api/players/<str:player_id>", PlayerDetailView.as_view(), name="player"),
    path("api/players/<str:player_id>/follow", FollowView.as_view(), name="player-follow"),
    path("api/players/<str:player_id>/block", BlockView.as_view(), name="player-block"),
    path("api/my/following", MyFollowingView.as_view(), name="my-following"),
    path("api/my/blocked", MyBlockedView.as_view(), name="my-blocked"),
    path("api/players/<str:player_id>/games", PlayerGamesView.as_view(), name="player-games"),
    path("api/players/<str:player_id>/games.txt", player_games_text, name="player-games-text"),
    path("api/", include("ratings.urls")),
    path("api/", include("puzzles.urls")),
    path("", include("frontend.urls")),
]
