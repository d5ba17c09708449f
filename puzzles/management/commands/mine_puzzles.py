"""``manage.py mine_puzzles``: play CPU self-play games and keep their proved forced wins as puzzles.

By default the puzzles go into the database (a board already in the pool, or a symmetric image of it,
is not added twice). ``--write`` instead adds them to the shipped data file (``puzzles/data/pool.jsonl``)
that a migration loads on a fresh install. Prints what it found and the rate, in puzzles per minute of
CPU time (``--json`` for a machine-readable line).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from puzzles.mining import mine
from puzzles.models import PuzzleOrigin
from puzzles.pool import POOL_FILE, PoolEntry, read_pool, write_pool
from puzzles.services import puzzle_add


class Command(BaseCommand):
    help = "Mine puzzles (proved wins in 3 to 9 plies) from CPU self-play games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=20, help="self-play games to play (default 20)")
        parser.add_argument("--seed", type=int, default=1, help="random seed of the games (default 1)")
        parser.add_argument("--write", action="store_true",
                            help=f"add to the data file {POOL_FILE.name}, not the database")
        parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")

    def handle(self, *args: Any, **options: Any) -> None:  # Any: Django's BaseCommand.handle
        games, seed = options["games"], options["seed"]
        pool: dict[str, PoolEntry] = {}
        if options["write"] and POOL_FILE.exists():
            pool = {entry.id: entry for entry in read_pool()}
        start = time.process_time()
        found = added = 0
        themes: Counter[str] = Counter()
        for game in mine(games=games, seed=seed):
            for puzzle in game.found:
                found += 1
                if options["write"]:
                    entry = PoolEntry.of(puzzle.record, puzzle.plies)
                    if entry.id in pool:
                        continue
                    pool[entry.id] = entry
                else:
                    row = puzzle_add(record=puzzle.record, plies=puzzle.plies, origin=PuzzleOrigin.SELF_PLAY,
                                     now=timezone.now())
                    if row.record != puzzle.record:
                        continue  # the same board (or an image of it) was in the pool already
                added += 1
                themes[f"win_in_{puzzle.plies}"] += 1
        cpu = time.process_time() - start
        if options["write"]:
            write_pool(sorted(pool.values(), key=lambda entry: (entry.plies, entry.id)))
        figures = {
            "games": games, "seed": seed, "found": found, "added": added, "cpu_seconds": round(cpu, 2),
            "per_cpu_minute": round(found / cpu * 60, 1) if cpu else None,
            "added_by_theme": dict(sorted(themes.items())),
        }
        if options["json"]:
            self.stdout.write(json.dumps(figures))
        else:
            self.stdout.write(
                f"{games} games, {found} puzzles found ({added} new) in {cpu:.1f} s of CPU: "
                f"{figures['per_cpu_minute']} a minute; new by theme: {figures['added_by_theme']}"
            )
