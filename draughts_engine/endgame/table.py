"""A solved database of one material, in memory.

Each position (see :mod:`.index`) has three numbers:

* ``wdl``: :data:`DRAW`, :data:`WIN` or :data:`LOSS` for the side to move when
  nothing limits the play, or :data:`UNUSED` for an index that is no position;
* ``dtz``: for a win or loss, the plies to the move that decides it within the
  governing count (:func:`.material.count_rule`): the winning capture, the
  move that leaves the loser without a move, or a move that starts the count
  afresh (a capture, a promotion, and where the count allows it a man move)
  into a position won with a fresh count; the winner hurries, the loser delays;
* ``dtm``: for a win or loss, the plies to the end of the game when the winner
  only plays moves that bring ``dtz`` down (so every count is kept), the winner
  taking the shortest such way and the loser the longest.

A win counts as a win with ``counted`` plies already on the count only if
``dtz <= limit - counted``; otherwise the count ends the game first and it is a
draw (:meth:`Table.result`).  ``dtm`` is then the distance of a forced win under
every draw rule of the variant, the one the search reports.
"""
from __future__ import annotations

from array import array
from typing import Optional, Tuple

from .index import MaterialIndex
from .material import CountRule

__all__ = ["Table", "DRAW", "WIN", "LOSS", "UNUSED"]

DRAW, WIN, LOSS, UNUSED = 0, 1, 2, 3


class Table:
    """The solved positions of one material: ``wdl``, ``dtz`` and ``dtm`` by index."""

    __slots__ = ("index", "rule", "wdl", "dtz", "dtm")

    def __init__(self, index: MaterialIndex, rule: CountRule, wdl: bytearray,
                 dtz: array, dtm: array) -> None:
        if not len(wdl) == len(dtz) == len(dtm) == index.size:  # pragma: no cover
            raise ValueError(f"table of {index.material.name}: planes of {len(wdl)}, {len(dtz)}, "
                             f"{len(dtm)} values for {index.size} positions")
        self.index = index
        self.rule = rule
        self.wdl = wdl
        self.dtz = dtz
        self.dtm = dtm

    @property
    def material(self):
        return self.index.material

    def result(self, i: int, counted: int = 0) -> Optional[Tuple[int, int, int]]:
        """``(wdl, dtz, dtm)`` of index ``i`` with ``counted`` plies on the count:
        a win or loss the count would cut short is a ``DRAW``; None if unused."""
        value = self.wdl[i]
        if value == UNUSED:
            return None
        if value == DRAW:
            return DRAW, 0, 0
        dtz = self.dtz[i]
        limit = self.rule.limit
        if limit and dtz > limit - counted:
            return DRAW, 0, 0
        return value, dtz, self.dtm[i]

    def counts(self) -> Tuple[int, int, int]:
        """How many positions are ``(wins, draws, losses)`` for the side to move with
        a fresh count (unused indices left out)."""
        wins = draws = losses = 0
        limit = self.rule.limit or (1 << 30)
        for value, dtz in zip(self.wdl, self.dtz):
            if value == WIN:
                if dtz <= limit:
                    wins += 1
                else:
                    draws += 1
            elif value == LOSS:
                if dtz <= limit:
                    losses += 1
                else:
                    draws += 1
            elif value == DRAW:
                draws += 1
        return wins, draws, losses
