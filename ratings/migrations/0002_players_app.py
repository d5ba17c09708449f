# The players' foreign keys now name players.Player (same table, lobby_player): state only.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_initial'),
        ('players', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='playerrating',
                    name='player',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='rating', serialize=False, to='players.player'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='opponent',
                    field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='players.player'),
                ),
            ],
            database_operations=[],
        ),
    ]
