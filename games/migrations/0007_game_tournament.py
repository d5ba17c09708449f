import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """The arena that paired a game (null for every other game)."""

    dependencies = [
        ('games', '0006_turns_halved'),
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name='+', to='tournaments.arena'),
        ),
    ]
