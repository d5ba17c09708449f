# A game can end as "abandoned" (its room closed first: for idling, or on purpose). Games left
# "playing" in rooms closed before this release become abandoned, as if closed now for idling.

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def abandon_games_of_closed_rooms(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Room = apps.get_model("lobby", "Room")
    closed_at = Subquery(Room.objects.filter(pk=OuterRef("room_id")).values("closed_at")[:1])
    Game.objects.filter(status="playing", room__closed_at__isnull=False).update(
        status="abandoned", reason="idle", finished_at=closed_at, deadline=None, due_at=None, lease_until=None,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_players_app'),
        ('lobby', '0002_players_app'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='reason',
            field=models.CharField(blank=True, choices=[('line', 'Line'), ('full_board', 'Full Board'), ('resignation', 'Resignation'), ('idle', 'Idle'), ('closed', 'Closed')], default='', max_length=12),
        ),
        migrations.AlterField(
            model_name='game',
            name='status',
            field=models.CharField(choices=[('playing', 'Playing'), ('won', 'Won'), ('drawn', 'Drawn'), ('resigned', 'Resigned'), ('abandoned', 'Abandoned')], default='playing', max_length=10),
        ),
        migrations.RunPython(abandon_games_of_closed_rooms, migrations.RunPython.noop),
    ]
