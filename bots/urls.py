"""The bot API's routes (docs/bots.md), included under /api/ by config.urls."""

from django.urls import path

from bots import views
from bots.streams.event import event_stream
from bots.streams.game import game_stream

urlpatterns = [
    path("bot/account", views.AccountView.as_view(), name="bot-account"),
    path("bot/account/upgrade", views.UpgradeView.as_view(), name="bot-upgrade"),
    path("challenge", views.ChallengeListView.as_view(), name="challenges"),
    path("challenge/<str:username>", views.ChallengeCreateView.as_view(), name="challenge-create"),
    path("challenge/<str:challenge_id>/show", views.ChallengeView.as_view(), name="challenge"),
    path("challenge/<str:challenge_id>/accept", views.ChallengeActionView.as_view(action="accept"),
         name="challenge-accept"),
    path("challenge/<str:challenge_id>/decline", views.ChallengeActionView.as_view(action="decline"),
         name="challenge-decline"),
    path("challenge/<str:challenge_id>/cancel", views.ChallengeActionView.as_view(action="cancel"),
         name="challenge-cancel"),
    path("stream/event", event_stream, name="stream-event"),
    path("bot/game/stream/<str:game_id>", game_stream, name="bot-game-stream"),
    path("bot/game/<str:game_id>/move/<str:peg>", views.MoveView.as_view(), name="bot-move"),
    path("bot/game/<str:game_id>/chat", views.ChatView.as_view(), name="bot-chat"),
    path("bot/game/<str:game_id>/draw/<str:answer>", views.DrawView.as_view(), name="bot-draw"),
    path("bot/game/<str:game_id>/resign", views.ResignView.as_view(), name="bot-resign"),
]
