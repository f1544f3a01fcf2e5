"""Quiet (non-capturing) moves of every variant: :func:`make_quiet_moves`, :func:`make_count_quiet`.

Quiet moves are legal only when the side to move has no capture; these
functions do not check that (the generator asks first).

Names bound in the closures below: ``board``, ``half``, ``half1``, ``flying``
as in :class:`~.rules.GeneratorRules`; the step tables of
:class:`~.tables.MoveTables`; ``empty`` the empty squares, ``own_kings`` and
``men`` the side to move's pieces by kind, ``s`` a shift, ``t`` the mask of
squares reached by a shift of a set of pieces, ``b`` one bit of it, ``dist``
the distance (in bits) a flying king has slid so far, ``n`` the count.
"""
from __future__ import annotations

from typing import Callable, List

from ..bitboard import popcount
from .rules import GeneratorRules, RawMove
from .tables import MoveTables

__all__ = ["make_quiet_moves", "make_count_quiet"]


def make_quiet_moves(rules: GeneratorRules,
                     tables: MoveTables) -> Callable[[int, int, int, bool], List[RawMove]]:
    """``quiet_moves(white, black, kings, white_to_move) -> list``: every quiet move,
    men's steps first (from the tables, left steps then right ones), then kings' moves
    direction by direction.

    The two step directions are written out, so each loop is one ``while`` over the
    bits of a mask (the shape PyPy's JIT compiles best; as fast on CPython).
    """
    board, half, half1, flying = rules.board, rules.half, rules.half1, rules.flying
    white_step_left, white_step_right = tables.white_step_left, tables.white_step_right
    black_step_left, black_step_right = tables.black_step_left, tables.black_step_right

    def quiet_moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
        empty = board ^ white ^ black
        out: List[RawMove] = []
        if white_to_move:
            own_kings = white & kings
            men = white ^ own_kings
            tl, tr = (men >> half1) & empty, (men >> half) & empty
            left, right = white_step_left, white_step_right
        else:
            own_kings = black & kings
            men = black ^ own_kings
            tl, tr = (men << half1) & empty, (men << half) & empty
            left, right = black_step_left, black_step_right
        while tl:
            b = tl & -tl
            tl ^= b
            out.append(left[b])
        while tr:
            b = tr & -tr
            tr ^= b
            out.append(right[b])
        if own_kings:
            king_steps(own_kings, empty, half1, out)
            king_steps(own_kings, empty, half, out)
        return out

    def king_steps(own_kings: int, empty: int, s: int, out: List[RawMove]) -> None:
        """Append the kings' quiet moves along the shift ``s``: up (``>> s``), then down."""
        t = (own_kings >> s) & empty
        dist = s
        while t:
            rest = t
            while rest:
                b = rest & -rest
                rest ^= b
                out.append((b << dist, b, 0, False))
            if not flying:
                break
            t = (t >> s) & empty
            dist += s
        t = (own_kings << s) & empty
        dist = s
        while t:
            rest = t
            while rest:
                b = rest & -rest
                rest ^= b
                out.append((b >> dist, b, 0, False))
            if not flying:
                break
            t = (t << s) & empty
            dist += s

    return quiet_moves


def make_count_quiet(rules: GeneratorRules) -> Callable[[int, int, int, bool], int]:
    """``count_quiet(white, black, kings, white_to_move) -> int``:
    ``len(quiet_moves(...))``, counted on masks."""
    board, half, half1, flying = rules.board, rules.half, rules.half1, rules.flying

    def count_quiet(white: int, black: int, kings: int, white_to_move: bool) -> int:
        empty = board ^ white ^ black
        if white_to_move:
            own_kings = white & kings
            n = popcount((white >> half1) & empty) + popcount((white >> half) & empty)
        else:
            own_kings = black & kings
            n = popcount((black << half1) & empty) + popcount((black << half) & empty)
        if own_kings:
            # Kings' steps the men's way were counted above; add the other way,
            # then the squares further along for flying kings.
            if white_to_move:
                n += popcount((own_kings << half1) & empty) + popcount((own_kings << half) & empty)
            else:
                n += popcount((own_kings >> half1) & empty) + popcount((own_kings >> half) & empty)
            if flying:
                for s in (half1, half):
                    t = (own_kings >> s) & empty
                    t = (t >> s) & empty
                    while t:
                        n += popcount(t)
                        t = (t >> s) & empty
                    t = (own_kings << s) & empty
                    t = (t << s) & empty
                    while t:
                        n += popcount(t)
                        t = (t << s) & empty
        return n

    return count_quiet
