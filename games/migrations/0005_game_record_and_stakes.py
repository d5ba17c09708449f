"""The game row carries its record (the pegs in order) and the stakes shown during it.

Existing games get their record from their Move rows; their stakes stay empty (a game being played
now shows no ratings until the next one starts).
"""

from django.db import migrations, models


def fill_records(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game in Game.objects.filter(ply__gt=0).iterator():
        pegs = Move.objects.filter(game_id=game.pk).order_by("ply").values_list("peg", flat=True)
        Game.objects.filter(pk=game.pk).update(record=" ".join(pegs))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_game_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="record",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.AddField(
            model_name="game",
            name="stakes",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(fill_records, migrations.RunPython.noop),
    ]
