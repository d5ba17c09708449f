"""Load the shipped puzzle pool (puzzles/data/pool.jsonl, mined by ``manage.py mine_puzzles --write``).

A few hundred rows in one bulk insert: a fresh ``migrate`` stays about as fast as before. Reversing it
removes the self-play puzzles the file holds.
"""

from django.db import migrations
from django.utils import timezone


def load_pool(apps, schema_editor):
    from games.engine.position import Position
    from puzzles.pool import START_RATING, START_RD, board_key, read_pool

    Puzzle = apps.get_model("puzzles", "Puzzle")
    now = timezone.now()
    Puzzle.objects.bulk_create(
        [
            Puzzle(id=entry.id, key=board_key(Position.from_record(entry.record)), record=entry.record,
                   plies=entry.plies, origin="self_play", rating=START_RATING[entry.plies], rd=START_RD,
                   volatility=0.06, created_at=now)
            for entry in read_pool()
        ],
        ignore_conflicts=True,
        batch_size=500,
    )


def unload_pool(apps, schema_editor):
    from puzzles.pool import read_pool

    Puzzle = apps.get_model("puzzles", "Puzzle")
    Puzzle.objects.filter(id__in=[entry.id for entry in read_pool()], origin="self_play").delete()


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]

    operations = [migrations.RunPython(load_pool, unload_pool)]
