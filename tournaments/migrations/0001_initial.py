
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0006_turns_halved'),
        ('players', '0003_player_username_key'),
    ]

    operations = [
        migrations.CreateModel(
            name='Arena',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60)),
                ('created_at', models.DateTimeField()),
                ('starts_at', models.DateTimeField()),
                ('ends_at', models.DateTimeField()),
                ('minutes', models.PositiveSmallIntegerField()),
                ('turn_seconds', models.PositiveSmallIntegerField(default=30)),
                ('ranked', models.BooleanField(default=True)),
                ('berserk', models.BooleanField(default=False)),
                ('status', models.CharField(choices=[('created', 'Created'), ('started', 'Started'), ('finished', 'Finished')], default='created', max_length=10)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('wave_at', models.DateTimeField(blank=True, null=True)),
                ('wave_until', models.DateTimeField(blank=True, null=True)),
                ('version', models.PositiveIntegerField(default=1)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='players.player')),
            ],
        ),
        migrations.CreateModel(
            name='ArenaGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('red_rating', models.FloatField()),
                ('yellow_rating', models.FloatField()),
                ('red_berserk', models.BooleanField(default=False)),
                ('yellow_berserk', models.BooleanField(default=False)),
                ('paired_at', models.DateTimeField()),
                ('scored_at', models.DateTimeField(blank=True, null=True)),
                ('points_red', models.PositiveSmallIntegerField(default=0)),
                ('points_yellow', models.PositiveSmallIntegerField(default=0)),
                ('arena', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='arena_games', to='tournaments.arena')),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game')),
                ('red', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='players.player')),
                ('yellow', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='players.player')),
            ],
        ),
        migrations.CreateModel(
            name='ArenaPlayer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('joined_at', models.DateTimeField()),
                ('rating', models.FloatField(help_text="The rating when last paired (for the opponents' performance).")),
                ('paused', models.BooleanField(default=False)),
                ('withdrawn', models.BooleanField(default=False)),
                ('reds', models.PositiveIntegerField(default=0)),
                ('yellows', models.PositiveIntegerField(default=0)),
                ('away_losses', models.PositiveSmallIntegerField(default=0)),
                ('score', models.PositiveIntegerField(default=0)),
                ('games', models.PositiveIntegerField(default=0)),
                ('wins', models.PositiveIntegerField(default=0)),
                ('draws', models.PositiveIntegerField(default=0)),
                ('losses', models.PositiveIntegerField(default=0)),
                ('streak', models.PositiveIntegerField(default=0)),
                ('perf_sum', models.IntegerField(default=0)),
                ('perf_games', models.PositiveIntegerField(default=0)),
                ('arena', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='tournaments.arena')),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.game')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='players.player')),
                ('previous_opponent', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='players.player')),
            ],
        ),
        migrations.AddIndex(
            model_name='arena',
            index=models.Index(fields=['status', 'starts_at'], name='tournaments_status_71885c_idx'),
        ),
        migrations.AddIndex(
            model_name='arenagame',
            index=models.Index(fields=['arena', 'scored_at'], name='tournaments_arena_i_d8306e_idx'),
        ),
        migrations.AddIndex(
            model_name='arenaplayer',
            index=models.Index(fields=['arena', '-score'], name='tournaments_arena_i_d17308_idx'),
        ),
        migrations.AddConstraint(
            model_name='arenaplayer',
            constraint=models.UniqueConstraint(fields=('arena', 'player'), name='arena_player_once'),
        ),
    ]
