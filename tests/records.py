"""Game records shared by tests across layers (engine, services, consumers, browser)."""

# A complete 64-move game in which no line of four is ever made: a draw.
DRAWN_RECORD = (
    "a4 d4 b4 a1 a1 a1 a3 b3 d1 c4 b2 a1 b2 a3 d1 d3 b1 b3 b2 a3 a3 b2 c3 b4 d2 d4 a2 b4 d3 b3 b1 d4 "
    "c3 d2 a2 d3 b1 c2 d1 a4 b4 a2 a2 b1 d4 c1 c3 d3 a4 c1 d2 d2 c1 c3 c1 c2 b3 d1 c2 a4 c4 c4 c4 c2"
)
# Red stacks four on a1 while yellow stacks on b1.
RED_VERTICAL_WIN = "a1 b1 a1 b1 a1 b1 a1"
