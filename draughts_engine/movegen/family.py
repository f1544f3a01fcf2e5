"""The general family's entry points, shared by every generator: :func:`make_general_family`.

``moves``, ``count`` and ``count_after`` from a capture search, the pieces that
can capture and the quiet moves; ``captures`` and ``capture_paths``; and
:func:`play`.  :class:`~.generator.MoveGenerator` (all the diagonal families
but the English one's fast paths), Frisian's and Turkish's generators build
their entry points here.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from .captures import CaptureSearch
from .rules import Family, PositionFn, RawMove

__all__ = ["play", "make_general_family", "make_captures", "make_capture_paths", "CapturePaths"]

#: Paths of every capture, for notation: ``{move: [(bit index, ...), ...]}``.
CapturePaths = Dict[RawMove, List[Tuple[int, ...]]]

def play(white: int, black: int, kings: int, white_to_move: bool,
         move: RawMove) -> Tuple[int, int, int]:
    """``(white, black, kings)`` after the side to move plays ``move`` (any variant)."""
    origin, dest, captured, promotes = move
    if captured:
        kings &= ~captured
    if kings & origin:
        kings ^= origin ^ dest
    elif promotes:
        kings |= dest
    if white_to_move:
        return white ^ origin ^ dest, black ^ captured, kings
    return white ^ captured, black ^ origin ^ dest, kings


def make_general_family(search: CaptureSearch, capture_sources: PositionFn,
                        quiet_moves: Callable[[int, int, int, bool], List[RawMove]],
                        count_quiet: PositionFn,
                        play_move: Optional[Callable[..., Tuple[int, int, int]]] = None
                        ) -> Family:
    """``moves``, ``count`` and ``count_after`` for every variant (see :class:`~.rules.Family`).

    ``play_move``: the variant's own ``play`` where :func:`play` does not do (Frisian's
    keeps the king-move state); ``count_after`` then plays the move with it.
    """
    all_captures = search.all_captures
    count_captures = search.count_captures

    def moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
        """All legal moves: the captures if there is one, else the quiet moves."""
        sources = capture_sources(white, black, kings, white_to_move)
        if sources:
            return all_captures(white, black, kings, white_to_move, sources, None)
        return quiet_moves(white, black, kings, white_to_move)

    def count(white: int, black: int, kings: int, white_to_move: bool) -> int:
        """``len(moves(...))``."""
        sources = capture_sources(white, black, kings, white_to_move)
        if sources:
            return count_captures(white, black, kings, white_to_move, sources)
        return count_quiet(white, black, kings, white_to_move)

    def count_after(white: int, black: int, kings: int, white_to_move: bool,
                    move: RawMove) -> int:
        """``count`` of the position after ``move``.

        The steps of :func:`play` are written out here on purpose: this is the
        innermost call of perft, and saving the call and its tuple measured +3%.
        """
        origin, dest, captured, promotes = move
        if captured:
            kings &= ~captured
        if kings & origin:
            kings ^= origin ^ dest
        elif promotes:
            kings |= dest
        if white_to_move:
            white ^= origin ^ dest
            black ^= captured
        else:
            white ^= captured
            black ^= origin ^ dest
        sources = capture_sources(white, black, kings, not white_to_move)
        if sources:
            return count_captures(white, black, kings, not white_to_move, sources)
        return count_quiet(white, black, kings, not white_to_move)

    if play_move is not None:
        def count_after_play(white: int, black: int, kings: int, white_to_move: bool,
                             move: RawMove) -> int:
            """``count`` of the position after ``move``, played by ``play_move``."""
            w, b, k = play_move(white, black, kings, white_to_move, move)
            return count(w, b, k, not white_to_move)
        return Family(moves, count, count_after_play)
    return Family(moves, count, count_after)


def make_captures(search: CaptureSearch,
                  capture_sources: PositionFn) -> Callable[[int, int, int, bool], List[RawMove]]:
    """``captures(white, black, kings, white_to_move) -> list``: the legal captures."""
    all_captures = search.all_captures

    def captures(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
        """The legal captures of the side to move (empty when it has none)."""
        sources = capture_sources(white, black, kings, white_to_move)
        if sources:
            return all_captures(white, black, kings, white_to_move, sources, None)
        return []

    return captures


def make_capture_paths(search: CaptureSearch, capture_sources: PositionFn
                       ) -> Callable[[int, int, int, bool], CapturePaths]:
    """``capture_paths(white, black, kings, white_to_move) -> dict``: the paths of every
    legal capture (for notation)."""
    all_captures = search.all_captures

    def capture_paths(white: int, black: int, kings: int, white_to_move: bool) -> CapturePaths:
        """Every landing-square path (bit indices, origin first) of every legal capture."""
        paths: CapturePaths = {}
        sources = capture_sources(white, black, kings, white_to_move)
        legal = all_captures(white, black, kings, white_to_move, sources, paths)
        return {m: paths[m] for m in legal}

    return capture_paths
