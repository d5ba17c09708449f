"""Write the pages' sounds (frontend/static/frontend/sounds/*.wav): short tones synthesised here, so that
nothing is downloaded at run time and the files can be made again from this script.

    .venv/bin/python scripts/make_sounds.py

Each sound is a few notes, each a sine with a little of its octave, shaped by a quick attack and an
exponential decay; 16-bit mono at 16 kHz keeps every file under 20 kB.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 16_000
OUT = Path(__file__).resolve().parent.parent / "frontend" / "static" / "frontend" / "sounds"

# name -> notes as (frequency in Hz, start in s, length in s, loudness 0..1)
SOUNDS: dict[str, list[tuple[float, float, float, float]]] = {
    "move": [(220.0, 0.0, 0.09, 0.8), (110.0, 0.0, 0.06, 0.5)],  # a bead's knock
    "turn": [(660.0, 0.0, 0.12, 0.45), (880.0, 0.09, 0.16, 0.45)],  # your turn: two rising notes
    "win": [(523.3, 0.0, 0.14, 0.5), (659.3, 0.12, 0.14, 0.5), (784.0, 0.24, 0.3, 0.55)],
    "loss": [(392.0, 0.0, 0.18, 0.5), (311.1, 0.16, 0.34, 0.5)],
    "draw": [(440.0, 0.0, 0.18, 0.45), (440.0, 0.2, 0.22, 0.4)],
    "clock": [(1000.0, 0.0, 0.05, 0.4), (1000.0, 0.12, 0.05, 0.4)],  # a low clock: two ticks
    "notify": [(784.0, 0.0, 0.1, 0.4), (1046.5, 0.08, 0.18, 0.4)],  # a challenge or a notification
}


def samples(notes: list[tuple[float, float, float, float]]) -> list[float]:
    length = max(start + dur for _, start, dur, _ in notes) + 0.02
    out = [0.0] * int(length * RATE)
    for freq, start, dur, loud in notes:
        first = int(start * RATE)
        for i in range(int(dur * RATE)):
            t = i / RATE
            envelope = min(1.0, t / 0.004) * math.exp(-5.0 * t / dur)
            wave_ = math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(4 * math.pi * freq * t)
            out[first + i] += loud * envelope * wave_ / 1.25
    peak = max(1.0, max(abs(s) for s in out))
    return [s / peak for s in out]


def write(name: str, values: list[float]) -> Path:
    path = OUT / f"{name}.wav"
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(b"".join(struct.pack("<h", int(v * 32000)) for v in values))
    return path


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, notes in SOUNDS.items():
        path = write(name, samples(notes))
        print(f"{path.relative_to(OUT.parent.parent.parent.parent)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
