"""The match plan: pairings, the games in index order, and shards.

Pairings are round robin (every pair of engines) or gauntlet (the first engine against each
other one). ``games`` games per pairing, in pairs: game pair ``p`` plays opening ``p`` twice,
colours swapped. The plan is a list with a deterministic index per game, interleaved by
opening: indexes ``2 (p Q + q)`` and ``+ 1`` are opening ``p`` of pairing ``q`` (``Q``
pairings); the first engine of the pairing has White in the even one. Shard ``K/N`` is the
games whose index % N == K - 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Sequence, Tuple

from protocol.match.errors import MatchError, bounded_int, quoted

__all__ = ["PlannedGame", "TOURNAMENTS", "MAX_GAMES", "build_pairings", "build_plan",
           "parse_shard", "shard_of"]

TOURNAMENTS = ("round-robin", "gauntlet")
MAX_GAMES = 1_000_000
"""Most games per pairing (the plan is held in memory)."""


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan: ``white``/``black`` are engine numbers (0-based)."""

    index: int
    pairing: int
    opening: int
    white: int
    black: int


def build_pairings(n_engines: int, tournament: str) -> List[Tuple[int, int]]:
    """The pairings (first, second) in plan order."""
    if n_engines < 2:
        raise MatchError("a match needs at least two engines")
    if tournament == "gauntlet":
        return [(0, j) for j in range(1, n_engines)]
    if tournament == "round-robin":
        return [(i, j) for i in range(n_engines) for j in range(i + 1, n_engines)]
    raise MatchError(f"unknown tournament {quoted(tournament)} (round-robin or gauntlet)")


def build_plan(n_engines: int, tournament: str, games: int) -> List[PlannedGame]:
    """The whole match, in index order (see the module docstring).

    >>> [(g.index, g.white, g.black, g.opening) for g in build_plan(2, "round-robin", 3)]
    [(0, 0, 1, 0), (1, 1, 0, 0), (2, 0, 1, 1)]
    """
    if not 1 <= games <= MAX_GAMES:
        raise MatchError(f"--games must be in 1..{MAX_GAMES}, got {games}")
    pairings = build_pairings(n_engines, tournament)
    plan: List[PlannedGame] = []
    for opening in range((games + 1) // 2):
        for number, (first, second) in enumerate(pairings):
            plan.append(PlannedGame(len(plan), number, opening, first, second))
            if 2 * opening + 1 < games:
                plan.append(PlannedGame(len(plan), number, opening, second, first))
    return plan


def parse_shard(text: str) -> Tuple[int, int]:
    """``"K/N"`` with ``1 <= K <= N``.

    >>> parse_shard("2/3")
    (2, 3)
    """
    k, sep, n = text.partition("/")
    try:
        if not sep:
            raise MatchError(text)
        shard = bounded_int(k, "K", 1, MAX_GAMES), bounded_int(n, "N", 1, MAX_GAMES)
    except MatchError:
        raise MatchError(f"--shard must be K/N with 1 <= K <= N, got {quoted(text, 20)}") from None
    if shard[0] > shard[1]:
        raise MatchError(f"--shard must be K/N with 1 <= K <= N, got {quoted(text, 20)}")
    return shard


def shard_of(plan: Sequence[PlannedGame], shard: Tuple[int, int]) -> List[PlannedGame]:
    """The games of ``plan`` that shard ``K/N`` plays."""
    k, n = shard
    return [g for g in plan if g.index % n == k - 1]
