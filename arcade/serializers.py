"""The arcade API's bodies, for the OpenAPI schema (drf-spectacular); the views build the JSON themselves
(:mod:`arcade.shown`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from arcade.engine import CLASSIC, MODES, Mode


def mode_json(mode: Mode) -> dict[str, Any]:
    """A mode as ``GET /api/arcade/modes`` shows it."""
    return {"id": mode.id, "shape": list(mode.shape.extent), "spawns": mode.spawns, "four_rate": mode.four_rate,
            "target": mode.target, "target_wins": mode.target_wins, "undo": mode.undo,
            "move_cap": settings.ARCADE_CLASSIC_MOVE_CAP if mode is CLASSIC else mode.move_cap,
            "directions": [direction.value for direction in mode.shape.directions]}


class ArcadeStartIn(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(choices=list(MODES))


class ArcadeMoveIn(serializers.Serializer[Any]):
    dir = serializers.ChoiceField(choices=["left", "right", "up", "down", "forward", "backward"],
                                  help_text="forward and backward on the cubes only.")
    n = serializers.IntegerField(min_value=0, help_text="The run's steps you have seen.")


class ArcadeStepIn(serializers.Serializer[Any]):
    n = serializers.IntegerField(min_value=0, required=False,
                                 help_text="The run's steps you have seen (left out: the run as it is).")


class ArcadeSpawnOut(serializers.Serializer[Any]):
    cell = serializers.IntegerField()
    value = serializers.IntegerField(help_text="2 or 4.")


class ArcadePlayerOut(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    title = serializers.CharField(required=False, help_text='"BOT" for a bot account.')


class ArcadeStateOut(serializers.Serializer[Any]):
    board = serializers.ListField(child=serializers.IntegerField(),
                                  help_text="Cells: x + n·y + n²·z on the cubes, x + 4·y on classic; 0 is empty.")
    score = serializers.IntegerField()
    best = serializers.IntegerField(help_text="Your best in the mode: never goes down.")
    peak = serializers.IntegerField(help_text="The run's highest score (what ranks).")
    top_tile = serializers.IntegerField(help_text="The run's largest tile.")
    moves = serializers.IntegerField(help_text="Moves counted (an undo takes one back).")
    steps = serializers.IntegerField(help_text="Steps applied (moves, undos, continues, ends): only grows. "
                                               "Send it as n.")
    # A plain string: an enum of this name exists already (a game's status), and one name has one set.
    status = serializers.CharField(help_text="playing, won, over or ended.")
    can_undo = serializers.BooleanField()


class ArcadeStepOut(ArcadeStateOut):
    moved = serializers.BooleanField(help_text="A move that moved nothing is not a move: false, nothing changed.")
    spawned = ArcadeSpawnOut(many=True, help_text="The new tiles, in the order placed.")
    gained = serializers.IntegerField()


class ArcadeRunOut(ArcadeStateOut):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=list(MODES))
    shape = serializers.ListField(child=serializers.IntegerField())
    reached_target = serializers.BooleanField()
    four_rate = serializers.FloatField()
    spawns = serializers.IntegerField(help_text="New tiles a move (2 on cube3-hard).")
    target = serializers.IntegerField()
    move_cap = serializers.IntegerField()
    bot = serializers.BooleanField(help_text="Played through a token: ranked on the bots' board.")
    player = ArcadePlayerOut()
    started_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    ranked_score = serializers.IntegerField(allow_null=True, help_text="The replay's peak once closed (what ranks).")
    record = serializers.DictField(required=False, help_text="Once closed: opening, then every step (docs/arcade.md).")


class ArcadeScoreRowOut(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = ArcadePlayerOut()
    score = serializers.IntegerField()
    top_tile = serializers.IntegerField()
    moves = serializers.IntegerField()
    date = serializers.DateTimeField()
    run = serializers.UUIDField(help_text="GET /api/arcade/runs/{run}: the run and its record.")


class ArcadeScoresOut(serializers.Serializer[Any]):
    mode = serializers.CharField()
    period = serializers.CharField()
    board = serializers.CharField()
    page = serializers.IntegerField()
    more = serializers.BooleanField(help_text="Another page follows.")
    rows = ArcadeScoreRowOut(many=True)


class ArcadeModeOut(serializers.Serializer[Any]):
    id = serializers.CharField()
    shape = serializers.ListField(child=serializers.IntegerField())
    spawns = serializers.IntegerField()
    four_rate = serializers.FloatField()
    target = serializers.IntegerField()
    target_wins = serializers.BooleanField()
    undo = serializers.BooleanField()
    move_cap = serializers.IntegerField()
    directions = serializers.ListField(child=serializers.CharField())
