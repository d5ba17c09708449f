"""Benchmark who is online (the friends list): what one process pays to publish the players it holds a page
socket of, and what one friends list pays to read them.

Run: ``.venv/bin/python scripts/bench_online.py [--players 10000 --friends 1000 --runs 5]``, with
``REDIS_URL`` set for the shared cache (without it, Django's local-memory cache). Each process renews the
keys of everyone it holds every ``ONLINE_RENEW_SECONDS`` in one ``set_many`` (``lobby.realtime.online``);
a friends list reads its accounts' keys in one ``get_many`` (``lobby.rooms.people.online_among``).
Prints the medians of ``--runs`` runs (CPU and wall time of this process) and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project's apps, run from anywhere


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10000, help="players held by the process")
    parser.add_argument("--friends", type=int, default=1000, help="accounts in one friends list")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.cache import cache

    from lobby.rooms.people import ONLINE_RENEW_SECONDS, online_key, online_publish

    ids = [str(uuid.uuid4()) for _ in range(args.players)]
    online_publish(here=ids, gone=())  # warm up: the connection, the first keys
    renew_cpu, renew_wall, read_wall = [], [], []
    for _ in range(args.runs):
        cpu, wall = time.process_time(), time.perf_counter()
        online_publish(here=ids, gone=())
        renew_cpu.append(time.process_time() - cpu)
        renew_wall.append(time.perf_counter() - wall)
        wall = time.perf_counter()
        cache.get_many([online_key(player_id) for player_id in ids[: args.friends]])
        read_wall.append(time.perf_counter() - wall)
    cache.delete_many([online_key(player_id) for player_id in ids])
    cpu_ms = statistics.median(renew_cpu) * 1000
    print(f"cache: {'Redis' if os.environ.get('REDIS_URL') else 'local memory'}; load average {os.getloadavg()}")
    print(f"renew {args.players:,} players: CPU {cpu_ms:.1f} ms, wall {statistics.median(renew_wall) * 1000:.1f} ms"
          f" (every {ONLINE_RENEW_SECONDS:g} s: {cpu_ms / ONLINE_RENEW_SECONDS / 10:.2f}% of a core)")
    print(f"read {args.friends:,} friends: wall {statistics.median(read_wall) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
