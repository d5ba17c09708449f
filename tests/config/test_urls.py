"""Routes one way: config.urls routes only config's own (the health check, the metrics, the admin, the
schema) and includes every app's own ``urls.py``, whose views are that app's."""

from __future__ import annotations

from types import ModuleType

from django.urls import URLPattern, URLResolver, resolve

import config.urls

CONFIG_OWN = {"health", "metrics", "schema"}


def _view_module(pattern: URLPattern) -> str:
    callback = pattern.callback
    return str(getattr(callback, "view_class", callback).__module__)


def _routes(resolver: URLResolver) -> list[URLPattern]:
    return [p for entry in resolver.url_patterns
            for p in (_routes(entry) if isinstance(entry, URLResolver) else [entry])]


def test_config_routes_its_own_and_includes_each_apps_urls_module():
    own, included = set(), []
    for entry in config.urls.urlpatterns:
        if isinstance(entry, URLPattern):
            own.add(entry.name)
        elif entry.app_name != "admin":
            assert isinstance(entry.urlconf_name, ModuleType)
            included.append(entry.urlconf_name.__name__)
    assert own == CONFIG_OWN
    assert all(name.count(".") == 1 and name.endswith(".urls") for name in included), included
    assert len(included) == len(set(included)) == 14


def test_an_apps_urls_module_routes_only_that_apps_views():
    for entry in config.urls.urlpatterns:
        if isinstance(entry, URLResolver) and entry.app_name != "admin":
            app = entry.urlconf_name.__name__.removesuffix(".urls")
            assert {_view_module(p).split(".")[0] for p in _routes(entry)} == {app}, app


def test_the_live_games_are_not_taken_for_a_game_id():
    assert resolve("/api/games/live").url_name == "games-live"
    assert resolve("/api/games/0b8c0a1e-6b5b-4e2c-9a49-6c3c6a3f1a2b").url_name == "game"
