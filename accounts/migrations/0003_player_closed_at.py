"""The accounts closed before ``Player.closed_at`` existed are marked closed, at the instant they were."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def mark_closed(apps, schema_editor):
    AccountDeletion = apps.get_model("accounts", "AccountDeletion")
    Player = apps.get_model("players", "Player")
    closed = AccountDeletion.objects.filter(player=OuterRef("pk")).values("deleted_at")[:1]
    Player.objects.filter(closed_at=None, pk__in=AccountDeletion.objects.values("player")).update(
        closed_at=Subquery(closed))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_accountemail_notifications"),
        ("players", "0007_player_closed_at"),
    ]

    operations = [migrations.RunPython(mark_closed, migrations.RunPython.noop)]
