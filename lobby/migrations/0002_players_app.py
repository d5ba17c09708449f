# Player moved to the players app: the lobby's foreign keys name players.Player and the lobby's state
# forgets the model. The table lobby_player and every row in it stay as they are (state only).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('lobby', '0001_initial'),
        ('players', '0001_initial'),
        ('games', '0002_players_app'),
        ('ratings', '0002_players_app'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='room',
                    name='host',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hosted_rooms', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='player',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='connection',
                    name='player',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, to='players.player'),
                ),
                migrations.DeleteModel(name='Player'),
            ],
            database_operations=[],
        ),
    ]
