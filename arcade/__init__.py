"""The arcade: 2048 on a 4x4 board and 3D 2048 on a 2x2x2 or 3x3x3 cube (docs/arcade.md).

Its rules live in :mod:`arcade.engine` (standard library only); the runs, the dealt spawns, the checked
scores and the high scores are built on the live platform beside it.
"""
