"""A solved database of one material, in memory.

Each position (see :mod:`.index`) has three numbers:

* ``wdl``: :data:`DRAW`, :data:`WIN` or :data:`LOSS` for the side to move when
  no count ends the game, or :data:`UNUSED` for an index that is no position;
* ``dtz``: for a win or loss, the plies to the move that decides it within the
  governing count (:func:`.material.count_rule`): the winning capture, the
  move that leaves the loser without a move, or a move that starts the count
  afresh (a capture, a promotion, and where the count allows it a man move)
  into a position won with a fresh count; the winner hurries, the loser delays;
* ``dtm``: for a win or loss, the plies to the end of the game, the winner
  taking the shortest way and the loser the longest, values after a move that
  starts the count afresh being read with a fresh count.  Stored as
  ``tail = dtm - dtz`` (never negative: the decisive move comes before the end).

A win counts as a win with ``counted`` plies already on the count only if
``dtz <= limit - counted``; otherwise the count ends the game first and it is a
draw (:meth:`Table.result`).  When ``dtm`` also fits in what is left of the
count, it is the exact distance of the win under every draw rule; otherwise the
win is certain (play the moves that bring ``dtz`` down) and ``dtm`` a lower
bound of its length.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

from .index import MaterialIndex
from .material import CountRule

__all__ = ["Table", "DRAW", "WIN", "LOSS", "UNUSED"]

DRAW, WIN, LOSS, UNUSED = 0, 1, 2, 3


class Table:
    """The solved positions of one material: ``wdl``, ``dtz`` and ``tail`` by index
    (any sequences of ints: arrays while solving, bytes when read from a file)."""

    __slots__ = ("index", "rule", "wdl", "dtz", "tail")

    def __init__(self, index: MaterialIndex, rule: CountRule, wdl: Sequence[int],
                 dtz: Sequence[int], tail: Sequence[int]) -> None:
        if not len(wdl) == len(dtz) == len(tail) == index.size:  # pragma: no cover
            raise ValueError(f"table of {index.material.name}: planes of {len(wdl)}, {len(dtz)}, "
                             f"{len(tail)} values for {index.size} positions")
        self.index = index
        self.rule = rule
        self.wdl = wdl
        self.dtz = dtz
        self.tail = tail

    @property
    def material(self):
        return self.index.material

    def dtm(self, i: int) -> int:
        """Plies to the end of the game from index ``i`` (0 for a draw)."""
        return self.dtz[i] + self.tail[i]

    def result(self, i: int, counted: int = 0) -> Optional[Tuple[int, int, int]]:
        """``(wdl, dtz, dtm)`` of index ``i`` with ``counted`` plies on the count:
        a win or loss the count would cut short is a ``DRAW``; None if unused."""
        value = self.wdl[i]
        if value == DRAW:
            return DRAW, 0, 0
        if value == UNUSED:
            return None
        dtz = self.dtz[i]
        limit = self.rule.limit
        if limit and dtz > limit - counted:
            return DRAW, 0, 0
        return value, dtz, dtz + self.tail[i]

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
