"""``python -m botclient``: run a bot on the site with an engine (docs/bots.md).

    python -m botclient --server http://127.0.0.1:8000 --token "$TOKEN" --cpu 5        # the site's Master
    python -m botclient --token "$TOKEN" --engine "./my-engine --threads 2" --timers 60 --rated rated
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import signal
from collections.abc import Sequence

from botclient.api import Api
from botclient.bot import Bot, Challenges
from botclient.engines import cpu_command
from botclient.policy import Policy


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m botclient", description="Run a bot on the site.")
    parser.add_argument("--server", default=os.environ.get("BOT_SERVER", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("BOT_TOKEN"), help="a personal access token (or BOT_TOKEN)")
    engine = parser.add_mutually_exclusive_group(required=True)
    engine.add_argument("--engine", help="a command speaking the line protocol on stdin/stdout")
    engine.add_argument("--cpu", type=int, choices=range(1, 6), help="the site's CPU: 1 Beginner .. 5 Master")
    parser.add_argument("--max-ms", type=int, default=5000, help="the most an engine thinks per move")
    parser.add_argument("--timers", default="30,60", help="turn timers to accept, e.g. 60")
    parser.add_argument("--rated", choices=["any", "rated", "casual"], default="any")
    parser.add_argument("--only-from", default="", help="usernames to accept challenges from (comma-separated)")
    parser.add_argument("--no-bots", action="store_true", help="decline challenges from bots")
    parser.add_argument("--no-people", action="store_true", help="decline challenges from people")
    parser.add_argument("--no-correspondence", action="store_true",
                        help="decline correspondence challenges (days per move)")
    parser.add_argument("--challenge", action="append", default=[], metavar="USERNAME",
                        help="challenge this account once connected (repeatable)")
    parser.add_argument("--challenge-timer", type=int, choices=[30, 60], default=30)
    parser.add_argument("--challenge-rated", action="store_true")
    parser.add_argument("--games", type=int, help="stop after this many games")
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(threadName)s %(levelname)s %(message)s")
    if not args.token:
        build_parser().error("a token is needed: --token or BOT_TOKEN")
    policy = Policy(
        timers=frozenset(int(t) for t in args.timers.split(",") if t.strip()),
        rated=args.rated,
        only_from=frozenset(name.strip().casefold() for name in args.only_from.split(",") if name.strip()),
        bots=not args.no_bots, people=not args.no_people, correspondence=not args.no_correspondence,
    )
    bot = Bot(
        Api(args.server, args.token),
        engine_command=cpu_command(args.cpu) if args.cpu else shlex.split(args.engine),
        policy=policy, max_ms=args.max_ms, games=args.games,
        challenges=Challenges(to=args.challenge, turn_seconds=args.challenge_timer, ranked=args.challenge_rated),
    )
    signal.signal(signal.SIGTERM, lambda *_: bot.stop.set())
    try:
        return bot.run()
    except KeyboardInterrupt:
        bot.stop.set()
        return 0
