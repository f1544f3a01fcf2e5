"""The friendly move value used at the API edge.

Hot code works with :data:`~.movegen.RawMove` tuples; a :class:`Move` wraps
one with PDN square numbers.  Two moves are equal when they have the same
origin, destination, captured set and promotion: the landing path of a
capture is kept for notation only.

>>> from draughts_engine.position import Position
>>> move = Position.from_fen("W:W27:B23,14", "english").legal_moves()[0]
>>> move.pdn(), move.pdn(full_path=False), move.hub(), move.captured
('27x18x9', '27x9', '27x9x14x23', (14, 23))
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Tuple

__all__ = ["Move"]


@dataclass(frozen=True)
class Move:
    """A legal move in PDN squares.

    ``path`` lists every square the piece stands on, origin first and
    destination last (two squares for a quiet move or a single capture).
    ``captured`` is sorted.  ``raw`` is the generator's tuple for this move.
    """

    start: int
    end: int
    captured: Tuple[int, ...]
    promotes: bool
    path: Tuple[int, ...] = field(compare=False)
    raw: tuple = field(compare=False, repr=False)

    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""
        return bool(self.captured)

    def pdn(self, full_path: bool = True) -> str:
        """PDN text: ``11-15``, ``15x24``, ``15x24x31`` (every landing square
        when ``full_path``; otherwise just origin and destination)."""
        if not self.captured:
            return f"{self.start}-{self.end}"
        squares = self.path if full_path else (self.start, self.end)
        return "x".join(str(s) for s in squares)

    def hub(self) -> str:
        """Hub-protocol text: ``32-28`` or ``from x to x each captured square``."""
        if not self.captured:
            return f"{self.start}-{self.end}"
        return "x".join(str(s) for s in (self.start, self.end) + self.captured)

    def __str__(self) -> str:
        return self.pdn()
