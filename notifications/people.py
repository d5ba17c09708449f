"""The notifications of follows: ``followed`` tells an account who began following them, once per follower
(its key): following, unfollowing and following again does not tell them twice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from notifications.services import notify
from players.selectors import player_json
from players.social import Followed


def followed_text(data: Mapping[str, Any]) -> str:
    """The text of ``followed`` (``notifications.kinds``)."""
    return gettext("%(name)s follows you.") % {"name": data["player"]["name"]}


def followed_notify(followed: Followed) -> None:
    """Registered with ``players.social.FOLLOWED`` (inside the follow's transaction: made once, as it is)."""
    follower = followed.follower
    notify(player_id=followed.followed.pk, kind="followed", url=f"/players/{follower.pk}",
           data={"player": player_json(follower)}, key=f"followed:{follower.pk}", now=followed.at)
