"""Playing weaker on purpose: :class:`Skill`, the engine's strength for a ``UCI_Elo`` setting.

A weakened engine searches to a small depth with several lines (MultiPV) and then plays one
of the lines, not always the best: each line's score gets a random bonus of up to
``noise`` centi-men and the highest total is played (Stockfish's Skill Level works the same
way in spirit).  With ``noise`` 0 it plays the best line of its depth.

The scale (PROTOCOL.md section 5, BENCHMARKS.md "Skill"): Elo on the project's own scale,
anchored at the depth ladder's anchor, the engine at fixed depth 2, rated
:data:`ANCHOR_ELO`.  Each row of :data:`SKILL_TABLE` was measured by a match against that
anchor (English, 40 games from 4-ply random openings, colours swapped:
``python3 tools/calibrate_skill.py``); a setting between two rows takes the lower row's
depth and a noise interpolated between the two rows when they share a depth.

The choice is random but reproducible: the random numbers of a search are drawn from a
generator seeded with the ``seed`` and the position (so a fixed ``Seed`` option plays the
same move in the same position, and ``Seed`` 0 draws a new seed per engine).
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple

from .interface import MATE_BOUND
from .limits import SearchLimits

__all__ = ["Skill", "SKILL_TABLE", "ELO_MIN", "ELO_MAX", "ELO_DEFAULT", "ANCHOR_ELO",
           "SKILL_LINES", "choose_line"]

ANCHOR_ELO = 1000
"""The rating of the scale's anchor: the engine at fixed depth 2 (the depth ladder's)."""

#: (Elo, depth, noise in centi-men), by increasing Elo; see the module docstring.
SKILL_TABLE: Tuple[Tuple[int, int, int], ...] = (
    (600, 1, 0),
    (700, 2, 180),
    (800, 2, 75),
    (900, 2, 45),
    (1000, 2, 0),
    (1100, 3, 20),
    (1200, 4, 50),
    (1300, 4, 35),
    (1400, 5, 20),
)

ELO_MIN = SKILL_TABLE[0][0]
ELO_MAX = SKILL_TABLE[-1][0]
ELO_DEFAULT = ANCHOR_ELO
"""``UCI_Elo``'s default: the middle of the range, the anchor."""

SKILL_LINES = 4
"""Lines a weakened search compares (all the legal moves when there are fewer)."""


@dataclass(frozen=True)
class Skill:
    """The strength of one ``UCI_Elo`` setting: search ``depth`` plies, then play
    :func:`choose_line` with ``noise``.  ``seed`` 0: a fresh random seed per search."""

    elo: int
    depth: int
    noise: int
    seed: int = 0

    @classmethod
    def of_elo(cls, elo: int, seed: int = 0) -> "Skill":
        """The skill of ``elo`` (clamped to :data:`ELO_MIN`..:data:`ELO_MAX`)."""
        elo = max(ELO_MIN, min(ELO_MAX, int(elo)))
        for (low, depth, noise), (high, next_depth, next_noise) in zip(SKILL_TABLE,
                                                                        SKILL_TABLE[1:]):
            if low <= elo < high:
                if next_depth == depth:
                    noise += (next_noise - noise) * (elo - low) // (high - low)
                return cls(elo, depth, noise, seed)
        return cls(elo, SKILL_TABLE[-1][1], SKILL_TABLE[-1][2], seed)

    def limits(self, limits: SearchLimits) -> SearchLimits:
        """``limits`` as the weakened search uses them: at most :attr:`depth` plies, and
        at least :data:`SKILL_LINES` lines when there is noise to choose with.  An
        ``infinite`` or ``ponder`` search becomes a search to that depth (it ends there; the
        wire holds its ``bestmove`` back until ``stop`` or ``ponderhit`` as for any search
        that ends early), so a weakened engine stays weak while it analyses or ponders."""
        depth = self.depth if limits.depth is None else min(limits.depth, self.depth)
        lines = max(limits.multipv, SKILL_LINES) if self.noise else limits.multipv
        return dataclasses.replace(limits, depth=depth, multipv=lines, infinite=False,
                                   ponder=False)

    def generator(self, position_key: Any) -> random.Random:
        """The random numbers of one search of the position ``position_key`` (see the
        module docstring)."""
        if not self.seed:
            return random.Random()
        return random.Random(f"{self.seed}:{position_key}")


def choose_line(lines: Sequence[Tuple[int, Any]], noise: int,
                rng: Optional[random.Random] = None) -> Any:
    """The move of the line to play among ``lines`` (``(score, move)``, scores in
    centi-men from the mover's view, mate scores beyond :data:`~.interface.MATE_BOUND`):
    the best score after a random bonus in 0..``noise`` each; a forced win is never
    given away for a bonus, a line that loses by force is never preferred to one that
    does not.

    >>> choose_line([(30, "a"), (-200, "b")], 0)
    'a'
    """
    if not lines:
        raise ValueError("no line to choose from")
    rng = rng or random.Random()
    best_value, best_move = None, lines[0][1]
    for score, move in lines:
        bonus = rng.randint(0, noise) if noise else 0
        value = score if abs(score) >= MATE_BOUND else score + bonus
        if best_value is None or value > best_value:
            best_value, best_move = value, move
    return best_move
