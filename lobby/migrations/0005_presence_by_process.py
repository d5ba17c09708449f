"""Presence by process heartbeat: connections carry their process, seats carry their presence,
rooms carry the spectator count they show.

The connections stored before this migration belonged to processes that a deployment restarts, and
their browsers reconnect; they are dropped, and every seated player counts as disconnected from now
until they do (their grace period starts then, as if their server had gone away).
"""

from django.db import migrations, models
from django.utils import timezone


def forget_old_connections(apps, schema_editor):
    Connection = apps.get_model("lobby", "Connection")
    Seat = apps.get_model("lobby", "Seat")
    Connection.objects.all().delete()
    Seat.objects.filter(player__isnull=False, disconnected_at=None).update(disconnected_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ("lobby", "0004_pairing"),
    ]

    operations = [
        migrations.RunPython(forget_old_connections, migrations.RunPython.noop),
        migrations.CreateModel(
            name="ServerProcess",
            fields=[
                ("id", models.CharField(max_length=80, primary_key=True, serialize=False)),
                ("started_at", models.DateTimeField()),
                ("beat_at", models.DateTimeField()),
                ("swept", models.BooleanField(default=False)),
            ],
            options={
                "indexes": [models.Index(fields=["swept", "beat_at"], name="lobby_serve_swept_f5e15f_idx")],
            },
        ),
        migrations.RemoveField(model_name="connection", name="last_seen_at"),
        migrations.AddField(
            model_name="connection",
            name="process",
            field=models.CharField(db_index=True, default="", max_length=80),
            preserve_default=False,
        ),
        migrations.AddIndex(
            model_name="connection",
            index=models.Index(fields=["room", "player"], name="lobby_conne_room_id_6816b0_idx"),
        ),
        migrations.AddField(
            model_name="room",
            name="spectators",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
