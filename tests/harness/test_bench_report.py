"""The benchmark's report: every target of issue 36 is printed, met or missed, with its figure and its
ratio to the echo of the same run."""

from __future__ import annotations

from harness.bench.report import Row, target_lines
from harness.bench.scenarios import IdleCost

ONE, TWO, EMB = "PostgreSQL + Redis, 1 process", "PostgreSQL + Redis, 2 processes", "embedded, 1 process"


def rows(*, game_p99: float, locked_trips: float = 240) -> list[Row]:
    return [
        Row(EMB, "echo, 200 pairs", "200/s", 200.0, 0.002, 0.010, 0),
        Row(EMB, "game, 200 games", "200/s", 199.0, 0.004, game_p99, 0, server_errors=0),
        Row(ONE, "echo, 2000 pairs", "200/s", 200.0, 0.004, 0.030, 0),
        Row(ONE, "game, 2000 games", "200/s", 199.0, 0.007, 0.045, 0, setup_seconds=50.0, setup_1000=24.5,
            trips_per_move=1.3, server_errors=0,
            drops={"held": (3800, 3800), "locked": (200, locked_trips), "ended": (100, 1200)}),
        Row(ONE, "echo, 200 pairs", "200/s", 200.0, 0.004, 0.040, 0),
        Row(ONE, "echo, 200 pairs", "saturate", 300.0, 0.5, 1.0, 0, cpu_per_move=0.0006),
        Row(ONE, "game, 200 games", "200/s", 200.0, 0.006, 0.060, 0),
        Row(ONE, "game, 200 games", "saturate", 200.0, 0.7, 1.2, 0, cpu_per_move=0.0015),
        Row(TWO, "echo, 200 pairs", "400/s", 398.0, 0.006, 0.050, 0),
        Row(TWO, "echo, 200 pairs", "saturate", 500.0, 0.5, 1.0, 0),
        Row(TWO, "game, 200 games", "400/s", 390.0, 0.010, 0.150, 0),
        Row(TWO, "game, 200 games", "saturate", 320.0, 0.6, 1.1, 0),
    ]


EXTRA = {
    "storm": {"joins": 300, "joined": 300, "failed": 0, "moves": 10, "p50": 0.02, "p99": 0.08, "frames": 3000,
              "room_frames": 900, "errors": 0, "cpu": 0.6},
    "idle": IdleCost(sockets=10000, rss_per_1000=20 * 1024 * 1000, cpu_per_1000=0.012, still_open=10000, held=60,
                    at_rest=0.008),
    "arena": {"players": 500, "first_wave_waiting": 500, "first_wave_pairs": 250, "first_wave_seconds": 1.5,
              "waves": 30, "wave_p99": 2.5, "wave_max": 2.7, "games": 600, "every_game_once": True,
              "once": {"distinct": True, "overlaps": 0, "untold": 0, "told_twice": 0}},
}


def verdicts(lines: list[str]) -> dict[str, tuple[str, str]]:
    """target -> (figure, met) from the Markdown table."""
    cells = [line.strip("|").split(" | ") for line in lines[2:]]
    return {c[0].strip(): (c[1].strip(), c[2].strip()) for c in cells}


def test_every_target_of_the_issue_is_printed_met_or_missed_with_its_figure():
    got = verdicts(target_lines(rows(game_p99=0.015), EXTRA))
    expected = {
        "a move is one round trip to PostgreSQL": (
            "1.01 round trips a drop; 95% of them from the held room at 1.00; a drop that ends the game: 12.0; all "
            "the process's round trips: 1.30 a move (the games' starts included, its rate at rest taken off)", "yes"),
        "server CPU per move ≤ 2x": ("1.5 ms vs echo 0.6 ms (2.5x)", "NO"),
        "1 process, 2000 games at 200/s: p50": ("7.0 ms vs echo 4.0 ms (1.8x)", "yes"),
        "1 process, 2000 games at 200/s: p99": ("45.0 ms vs echo 30.0 ms (1.5x)", "yes"),
        "1 process, 2000 games at 200/s: no error": ("199/s done; 0 client errors, 0 in the server log", "yes"),
        "2 processes, 200 games at 400/s offered: ≥ 95%": ("390/s (98%); echo 398/s", "yes"),
        "2 processes at 400/s offered: p99": ("150.0 ms (echo 50.0 ms, 3.0x)", "NO"),
        "embedded: 200 games at 200/s": ("199/s done; 0 client errors, 0 in the server log", "yes"),
        "embedded: p99": ("15.0 ms vs echo 10.0 ms (1.5x)", "yes"),
        "1,000 games set up": ("24.5 s (all 2000 games: 50.0 s)", "yes"),
        "a join": ("2.0 ms", "yes"),
        "storm": ("80.0 ms (10 moves; 300 joined, 0 failed)", "yes"),
        "10000 idle sockets: ≤ 24 KiB": ("20.0 KiB", "yes"),
        "10000 idle sockets: ≤ 1%": ("1.20%", "NO"),
        "an idle server (no socket) ≤ 0.5%": ("0.80%", "NO"),
        "10000 idle sockets: all still open": ("10000 open after 60 s", "yes"),
        "arena of 500: the first wave": ("1.50 s for 250 pairs of 500 waiting", "yes"),
        "arena of 500: waves p99": ("2.50 s over 30 waves (max 2.70 s)", "NO"),
        "arena of 500: every game exactly once": (
            "600 games; each in a room of its own: yes; a player in two at once: 0; untold: 0, told twice: 0", "yes"),
    }
    assert len(got) == len(expected), list(got)
    for start, verdict in expected.items():
        [target] = [name for name in got if name.startswith(start)]
        assert got[target] == verdict, (target, got[target])


def test_more_than_one_round_trip_a_move_and_a_slow_embedded_tail_are_missed():
    got = verdicts(target_lines(rows(game_p99=0.025, locked_trips=200 * 7), EXTRA))
    [tail] = [name for name in got if name.startswith("embedded: p99")]
    assert got[tail] == ("25.0 ms vs echo 10.0 ms (2.5x)", "NO")
    [trips] = [name for name in got if name.startswith("a move is one round trip")]
    assert got[trips][0].startswith("1.30 round trips a drop;") and got[trips][1] == "NO"
