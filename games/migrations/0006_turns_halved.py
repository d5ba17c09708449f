from django.db import migrations, models


class Migration(migrations.Migration):
    """A colour may play a game on half the turn timer (an arena's berserk)."""

    dependencies = [
        ('games', '0005_game_record_and_stakes'),
    ]

    operations = [
        migrations.AddField(model_name='game', name='red_halved', field=models.BooleanField(default=False)),
        migrations.AddField(model_name='game', name='yellow_halved', field=models.BooleanField(default=False)),
    ]
