"""An arena's points, streaks and standings, as pure functions of its games (no Django, by contract).

The rules (lichess's arena, adapted; docs/tournaments.md):

- a win scores 2, a draw 1, a loss 0;
- after two wins in a row a player is *on fire*: wins score 4 and draws 2 until a game that is not a win;
- a game over in fewer than ``MIN_PLIES`` plies scores 0 for both and changes no streak (no farming);
- a player who *berserked* (halved their own turn timer before their first move) and wins scores one
  point more, if the game lasted at least ``BERSERK_MIN_PLIES`` plies;
- an abandoned game (its room closed) scores nothing and counts for nothing.

The standings are ordered by points, then by performance in the arena (each counted game scores the
opponent's rating + 500 for a win, - 500 for a loss, the rating itself for a draw; the mean), then by
who joined first. The store keeps each player's running totals (``Tally``) updated game by game with
:func:`tally_after`; :func:`tallies_from_games` recomputes them from the games list, and the two must agree.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

WIN_POINTS = 2
DRAW_POINTS = 1
FIRE_MULTIPLIER = 2
BERSERK_BONUS = 1
MIN_PLIES = 10
BERSERK_MIN_PLIES = 14
WINS_FOR_FIRE = 2
PERFORMANCE_SPREAD = 500
PODIUM_SIZE = 3


class Result(enum.StrEnum):
    """One player's result in one game."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    VOID = "void"  # abandoned: no result


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's running totals in one arena.

    ``streak``: wins in a row up to now (``on_fire`` from ``WINS_FOR_FIRE``). ``perf_sum`` and
    ``perf_games``: the sum of the performance scores of the counted games, and how many there were.
    """

    score: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0
    perf_sum: int = 0
    perf_games: int = 0

    @property
    def on_fire(self) -> bool:
        return self.streak >= WINS_FOR_FIRE

    @property
    def performance(self) -> int | None:
        """The arena performance (None before a counted game)."""
        return None if not self.perf_games else round(self.perf_sum / self.perf_games)


def points(*, result: Result, on_fire: bool, berserk: bool, plies: int) -> int:
    """The points one player scores for one game.

    ``on_fire``: the player was on fire when the game began; ``berserk``: they halved their own timer.
    """
    if result is Result.VOID or plies < MIN_PLIES:
        return 0
    if result is Result.LOSS:
        return 0
    base = WIN_POINTS if result is Result.WIN else DRAW_POINTS
    scored = base * FIRE_MULTIPLIER if on_fire else base
    if result is Result.WIN and berserk and plies >= BERSERK_MIN_PLIES:
        scored += BERSERK_BONUS
    return scored


def tally_after(
    tally: Tally, *, result: Result, berserk: bool, plies: int, opponent_rating: float
) -> tuple[Tally, int]:
    """The tally after one more game, and the points that game scored."""
    scored = points(result=result, on_fire=tally.on_fire, berserk=berserk, plies=plies)
    if result is Result.VOID:
        return tally, 0
    short = plies < MIN_PLIES
    counted = replace(
        tally,
        score=tally.score + scored,
        games=tally.games + 1,
        wins=tally.wins + (result is Result.WIN),
        draws=tally.draws + (result is Result.DRAW),
        losses=tally.losses + (result is Result.LOSS),
    )
    if short:  # played, but it scores nothing, changes no streak and no performance
        return counted, scored
    swing = {Result.WIN: PERFORMANCE_SPREAD, Result.DRAW: 0, Result.LOSS: -PERFORMANCE_SPREAD}[result]
    return replace(
        counted,
        streak=tally.streak + 1 if result is Result.WIN else 0,
        perf_sum=counted.perf_sum + round(opponent_rating) + swing,
        perf_games=counted.perf_games + 1,
    ), scored


@dataclass(frozen=True, slots=True)
class ArenaGameResult:
    """A finished game of the arena as the games list shows it; ``winner`` is ``red``, ``yellow`` or None."""

    red: str
    yellow: str
    winner: str | None
    plies: int
    abandoned: bool = False
    red_berserk: bool = False
    yellow_berserk: bool = False
    red_rating: float = 1500.0
    yellow_rating: float = 1500.0

    def result_of(self, colour: str) -> Result:
        if self.abandoned:
            return Result.VOID
        if self.winner is None:
            return Result.DRAW
        return Result.WIN if self.winner == colour else Result.LOSS


def tallies_from_games(games: Iterable[ArenaGameResult]) -> tuple[dict[str, Tally], list[tuple[int, int]]]:
    """Every player's tally recomputed from the games in the order they ended, and each game's
    (red's points, yellow's points)."""
    tallies: dict[str, Tally] = {}
    scored: list[tuple[int, int]] = []
    for game in games:
        pair = []
        for colour, player, opponent_rating, berserk in (
            ("red", game.red, game.yellow_rating, game.red_berserk),
            ("yellow", game.yellow, game.red_rating, game.yellow_berserk),
        ):
            tallies[player], got = tally_after(
                tallies.get(player, Tally()), result=game.result_of(colour), berserk=berserk, plies=game.plies,
                opponent_rating=opponent_rating,
            )
            pair.append(got)
        scored.append((pair[0], pair[1]))
    return tallies, scored


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the arena with their tally; ``order`` is when they joined (earlier first)."""

    player_id: str
    tally: Tally
    order: int


def standings(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants ranked: points, then performance, then who joined first."""
    return sorted(
        entrants,
        key=lambda e: (-e.tally.score, -(e.tally.performance or 0), e.order),
    )


def podium(ranked: Sequence[Entrant]) -> list[Entrant]:
    """The first three of the final standings who played at least one game."""
    return [entrant for entrant in ranked if entrant.tally.games][:PODIUM_SIZE]
