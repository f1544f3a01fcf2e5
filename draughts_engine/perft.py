"""Perft: count the leaf nodes of the legal-move tree to a fixed depth.

The last ply is bulk-counted with :meth:`MoveGenerator.count` (the same
generator the engine uses, without making the final moves); ``perft_make``
makes every move down to the leaves, for benchmarking the make step.

>>> from draughts_engine.position import Position
>>> perft(Position.start("english"), 4), divide(Position.start("english"), 1)[0]
(1469, ('9-14', 1))
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from .movegen import MoveGenerator

__all__ = ["perft", "perft_make", "perft_raw", "divide"]


def perft_raw(gen: MoveGenerator, white: int, black: int, kings: int,
              white_to_move: bool, depth: int) -> int:
    """Leaf count of the tree of ``depth`` plies below a raw position (bulk last ply)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return gen.count(white, black, kings, white_to_move)
    moves = gen.moves
    count_after = gen.count_after
    play = gen.play

    def walk(w: int, b: int, k: int, wtm: bool, d: int) -> int:
        total = 0
        nwtm = not wtm
        if d == 2:
            for m in moves(w, b, k, wtm):
                total += count_after(w, b, k, wtm, m)
            return total
        d -= 1
        for m in moves(w, b, k, wtm):
            nw, nb, nk = play(w, b, k, wtm, m)
            total += walk(nw, nb, nk, nwtm, d)
        return total

    return walk(white, black, kings, white_to_move, depth)


def perft_make(gen: MoveGenerator, white: int, black: int, kings: int,
               white_to_move: bool, depth: int) -> int:
    """Like :func:`perft_raw` but generating and making every move down to the leaves."""
    moves = gen.moves
    play = gen.play

    def walk(w: int, b: int, k: int, wtm: bool, d: int) -> int:
        if d == 0:
            return 1
        total = 0
        nwtm = not wtm
        d -= 1
        for m in moves(w, b, k, wtm):
            nw, nb, nk = play(w, b, k, wtm, m)
            total += walk(nw, nb, nk, nwtm, d)
        return total

    return walk(white, black, kings, white_to_move, depth)


def perft(position, depth: int) -> int:
    """Leaf count below a :class:`~.position.Position` at ``depth`` plies."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    return perft_raw(position.generator, position.white, position.black, position.kings,
                     position.white_to_move, depth)


def divide(position, depth: int, notation: Optional[str] = "numeric") -> List[Tuple[str, int]]:
    """Per root move ``(move text, leaf count)``, in legal-move order.

    Depth must be at least 1.  Move texts are in ``notation`` (``numeric``, ``algebraic``,
    or None for the variant's own; see :meth:`Position.move_text`).
    """
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, got {depth}")
    rows = []
    for move in position.legal_moves():
        child = position.play(move)
        rows.append((position.move_text(move, notation), perft(child, depth - 1)))
    return rows
