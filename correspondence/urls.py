from django.urls import path

from correspondence.views import MyGamesView, SeekAcceptView, SeeksView, SeekView

urlpatterns = [
    path("seeks", SeeksView.as_view(), name="seeks"),
    path("seeks/<int:seek_id>", SeekView.as_view(), name="seek"),
    path("seeks/<int:seek_id>/accept", SeekAcceptView.as_view(), name="seek-accept"),
    path("my/games", MyGamesView.as_view(), name="my-games"),
]
