"""Web pages at the site root (the API lives under /api/, see config/urls.py)."""

from django.urls import path

from frontend import arcade_pages, jscatalog, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("language", views.set_language, name="set-language"),
    path("i18n/<slug:language>.<slug:version>.js", jscatalog.js_catalog, name="js-catalog"),
    path("r/<slug:code>", views.room, name="room"),
    path("ratings", views.ratings, name="ratings"),
    path("challenges", views.challenges, name="challenges"),
    path("my/games", views.my_games, name="my-games"),
    path("account", views.account, name="account"),
    path("players/<str:player_id>", views.player, name="player"),
    path("games/<str:game_id>", views.replay, name="replay"),
    path("analysis", views.analysis, name="analysis"),
    path("tournaments/<int:arena_id>", views.arena, name="arena"),
    path("arenas", views.arenas, name="arenas"),
    path("puzzles", views.puzzle, name="puzzles"),
    path("puzzles/<str:puzzle_id>", views.puzzle, name="puzzle"),
    path("arcade", arcade_pages.hub, name="arcade"),
    path("arcade/2048", arcade_pages.game_2048, name="arcade-2048"),
    path("arcade/3d", arcade_pages.game_3d, name="arcade-3d"),
    path("arcade/scores", arcade_pages.scores, name="arcade-scores"),
    path("arcade/runs/<str:run_id>", arcade_pages.run, name="arcade-run"),
    path("arcade/sw.js", arcade_pages.service_worker, name="arcade-sw"),
]
