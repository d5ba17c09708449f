# Usernames are compared in a normal form (NFKC, casefolded): players of accounts get that key, stored
# unique. Existing accounts get theirs here, oldest account first. Two existing accounts whose names
# share a key (registered before this check existed) cannot both have it: the newer keeps a null key
# and still logs in with the exact name it registered (players.accounts looks that up first).

import unicodedata

from django.db import migrations, models


def username_key(username):
    # The same as players.accounts.username_key, frozen here as a migration must be.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def backfill(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    taken = set()
    for player in Player.objects.filter(user__isnull=False).select_related("user").order_by("user_id"):
        key = username_key(player.user.username)
        if key in taken:
            continue
        taken.add(key)
        Player.objects.filter(pk=player.pk).update(username_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0002_player_banned_at'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='username_key',
            field=models.CharField(blank=True, editable=False, max_length=150, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='player',
            name='username_key',
            field=models.CharField(blank=True, editable=False, max_length=150, null=True, unique=True),
        ),
    ]
