"""The benchmark's report: every target of issue 21 is printed, met or missed, with its figure."""

from __future__ import annotations

from harness.bench.report import Row, target_lines

ONE, TWO, EMB = "PostgreSQL + Redis, 1 process", "PostgreSQL + Redis, 2 processes", "embedded, 1 process"


def rows(*, game_p99: float) -> list[Row]:
    return [
        Row(EMB, "echo, 200 pairs", "200/s", 200.0, 0.002, 0.010, 0),
        Row(EMB, "game, 200 games", "200/s", 199.0, 0.004, game_p99, 0, "server-log errors 0"),
        Row(ONE, "echo, 1000 pairs", "100/s", 100.0, 0.004, 0.050, 0),
        Row(ONE, "game, 1000 games", "100/s", 99.0, 0.007, 0.090, 0, setup_seconds=25.0),
        Row(ONE, "echo, 200 pairs", "100/s", 100.0, 0.004, 0.040, 0),
        Row(ONE, "echo, 200 pairs", "saturate", 300.0, 0.5, 1.0, 0),
        Row(ONE, "game, 200 games", "100/s", 100.0, 0.006, 0.060, 0),
        Row(ONE, "game, 200 games", "saturate", 200.0, 0.7, 1.2, 0, cpu_per_move=0.0034),
        Row(TWO, "echo, 200 pairs", "400/s", 390.0, 0.006, 0.050, 0),
        Row(TWO, "echo, 200 pairs", "saturate", 500.0, 0.5, 1.0, 0),
        Row(TWO, "game, 200 games", "400/s", 300.0, 0.010, 0.150, 0),
        Row(TWO, "game, 200 games", "saturate", 320.0, 0.6, 1.1, 0),
    ]


EXTRA = {
    "storm": {"joins": 300, "joined": 300, "failed": 0, "moves": 10, "p50": 0.02, "p99": 0.08, "frames": 3000,
              "room_frames": 900, "errors": 0, "cpu": 0.6},
    "idle": {"sockets": 2000, "rss_per_1000": 30 * 1024 * 1000, "cpu_per_1000": 0.025},
}


def verdicts(lines: list[str]) -> dict[str, tuple[str, str]]:
    """target -> (figure, met) from the Markdown table."""
    cells = [line.strip("|").split(" | ") for line in lines[2:]]
    return {c[0].strip(): (c[1].strip(), c[2].strip()) for c in cells}


def test_every_target_of_the_issue_is_printed_met_or_missed_with_its_figure():
    got = verdicts(target_lines(rows(game_p99=0.015), EXTRA))
    expected = {
        "server CPU per move": ("3.4 ms", "yes"),
        "1 process, 1,000 games at 100/s: p50": ("7.0 ms vs echo 4.0 ms (1.8x)", "yes"),
        "1 process, 1,000 games at 100/s: p99": ("90.0 ms vs echo 50.0 ms (1.8x)", "yes"),
        "1 process saturated": ("200 vs 300 moves/s (67%)", "NO"),
        "2 processes at 400/s offered: ≥ 70%": ("300 vs 390 moves/s (77%)", "yes"),
        "2 processes at 400/s offered: p99": ("150.0 ms", "NO"),
        "a join": ("2.0 ms", "yes"),
        "storm": ("80.0 ms (10 moves; 300 joined, 0 failed)", "yes"),
        "1,000 games set up": ("25.0 s", "yes"),
        "idle: ≤ 2% of a core": ("2.5%", "NO"),
        "idle: ≤ 32 KiB": ("30.0 KiB", "yes"),
        "embedded: 200 games at 200/s": ("199/s done, 0 client errors, 0 in the server log", "yes"),
        "embedded: p99": ("15.0 ms vs echo 10.0 ms (1.5x)", "yes"),
    }
    assert len(got) == len(expected), list(got)
    for start, verdict in expected.items():
        [target] = [name for name in got if name.startswith(start)]
        assert got[target] == verdict, (target, got[target])


def test_a_slow_embedded_tail_is_missed():
    got = verdicts(target_lines(rows(game_p99=0.025), EXTRA))
    [target] = [name for name in got if name.startswith("embedded: p99")]
    assert got[target] == ("25.0 ms vs echo 10.0 ms (2.5x)", "NO")
