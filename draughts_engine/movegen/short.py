"""The English family's fast paths (forward-only men, short kings): :func:`make_short_family`.

The same contracts as the general ``moves``, ``count`` and ``count_after`` of
:class:`~.generator.MoveGenerator`, written for the common case of this family:
no kings of the side to move, so everything can be done on whole-board masks.
A side with kings and a capture falls back to the general capture search.

Captures of forward-only men: such a man climbs two rows per jump, so a chain
never meets a square, a victim or the way back twice.  The chains of a
position therefore do not depend on what was already captured, no two chains
are the same move, and a man crowned on the far row has nothing left to jump.

Names bound in the closures below: ``board``, ``half``, ``half1``, ``top``,
``bottom`` as in :class:`~.rules.GeneratorRules` (some as default arguments:
locals are the fastest names in CPython); ``empty`` the empty squares;
``own_kings`` the side to move's kings; ``left`` / ``right`` the squares the
side's men step to by ``half + 1`` / ``half`` (before masking with ``empty``);
``jl`` / ``jr`` the landing squares of the men's first jumps by ``2 * (half + 1)``
/ ``2 * half``; ``tl`` / ``tr`` the destinations of the men's steps;
``l0..l3`` / ``r0..r3`` the four chunk tables of each step direction
(:func:`~.tables.chunk_tables`); ``onward`` the squares from which a man of
the side to move can jump (a landing there continues the capture); ``b`` one
bit; ``s`` a shift.
"""
from __future__ import annotations

from typing import Callable, List

from ..bitboard import popcount
from ..runtime import TRACED
from .captures import CaptureSearch
from .quiet import make_quiet_moves
from .rules import NULL_MOVE, Family, GeneratorRules, RawMove
from .tables import MoveTables

__all__ = ["make_short_family", "make_short_count_after", "make_short_moves",
           "make_short_men_captures", "make_count_short_men_captures"]


def make_short_men_captures(rules: GeneratorRules) -> Callable[..., None]:
    """``short_men_captures(land_left, land_right, opp, empty, onward, jumps, hops, crown, out)``.

    Appends to ``out`` the men's captures whose first jumps land on ``land_left``
    (by ``half + 1``) and ``land_right`` (by ``half``); ``jumps`` and ``hops``
    are the side's :class:`~.tables.MoveTables` entries, ``crown`` its promotion row.
    """
    def short_men_captures(land_left: int, land_right: int, opp: int, empty: int,
                           onward: int, jumps: tuple, hops: dict, crown: int,
                           out: list) -> None:
        append = out.append
        for land, table in ((land_left, jumps[0]), (land_right, jumps[1])):
            while land:
                b = land & -land
                land ^= b
                if not b & onward:
                    append(table[b])
                    continue
                origin, _, captured, _ = table[b]
                chains = [(b, captured)]  # (square reached, captured so far), still to extend
                while chains:
                    at, captured = chains.pop()
                    if at & onward:
                        for victim, to in hops[at]:
                            if opp & victim and empty & to:
                                chains.append((to, captured | victim))
                    else:
                        append((origin, at, captured, at & crown != 0))

    return short_men_captures


def make_count_short_men_captures(rules: GeneratorRules) -> Callable[..., int]:
    """``count_short_men_captures(land_left, land_right, opp, empty, up) -> int``.

    ``len`` of what ``short_men_captures`` would append, on whole-board masks
    (``up``: the side moves towards bit 0, i.e. White).  ``frontier`` holds one
    mask per way the chains have come (still to be extended), so a square
    reached by two chains is in two of them.
    """
    half, half1 = rules.half, rules.half1

    def count_short_men_captures(land_left: int, land_right: int, opp: int, empty: int,
                                 up: bool) -> int:
        if up:
            onward = (((empty << half1) & opp) << half1) | (((empty << half) & opp) << half)
        else:
            onward = (((empty >> half1) & opp) >> half1) | (((empty >> half) & opp) >> half)
        n = 0
        frontier = [land_left, land_right]
        pop, push = frontier.pop, frontier.append
        while frontier:
            land = pop()
            goes_on = land & onward
            n += popcount(land ^ goes_on)
            if goes_on:
                if up:
                    push((((goes_on >> half1) & opp) >> half1) & empty)
                    push((((goes_on >> half) & opp) >> half) & empty)
                else:
                    push((((goes_on << half1) & opp) << half1) & empty)
                    push((((goes_on << half) & opp) << half) & empty)
        return n

    return count_short_men_captures


def make_short_count_after(rules: GeneratorRules, count_captures: Callable[..., int],
                           count_short_men_captures: Callable[..., int]
                           ) -> Callable[[int, int, int, bool, RawMove], int]:
    """``count_after(white, black, kings, white_to_move, move) -> int`` for the English family:
    how many legal moves the opponent has after ``move``.

    The move is made inline (the same steps as ``play``): this is the innermost
    loop of perft.  Without kings of the side to move, everything is counted on
    whole-board masks (capture chains by ``count_short_men_captures``); a side
    with kings and a capture goes to the general ``count_captures``.  The fourth
    argument is the side that makes ``move`` (``mover_is_white``).
    """
    board, half, half1 = rules.board, rules.half, rules.half1

    def count_short_after(white: int, black: int, kings: int, mover_is_white: bool,
                          move: RawMove, board: int = board, half: int = half,
                          half1: int = half1, popcount=popcount) -> int:
        """See :func:`make_short_count_after`."""
        origin, dest, captured, promotes = move
        if kings:
            if captured:
                kings &= ~captured
            if kings & origin:
                kings ^= origin ^ dest
            elif promotes:
                kings |= dest
        elif promotes:
            kings = dest
        # One branch per side, each written out: ``left``/``right`` are the
        # squares the side's men step to (before masking), shared by the
        # capture test and the quiet count.
        if mover_is_white:
            white ^= origin ^ dest
            if captured:
                black ^= captured
            empty = board ^ white ^ black
            own_kings = black & kings if kings else 0
            left, right = black << half1, black << half
            if own_kings:
                if ((((left & white) << half1) | ((right & white) << half)
                     | (((own_kings >> half1) & white) >> half1)
                     | (((own_kings >> half) & white) >> half)) & empty):
                    return count_captures(white, black, kings, False, black)
                return (popcount(left & empty) + popcount(right & empty)
                        + popcount((own_kings >> half1) & empty)
                        + popcount((own_kings >> half) & empty))
            jl, jr = (left & white) << half1, (right & white) << half
            if (jl | jr) & empty:
                jl &= empty
                jr &= empty
                land = jl | jr
                if ((((land << half1) & white) << half1) | (((land << half) & white) << half)) \
                        & empty:
                    return count_short_men_captures(jl, jr, white, empty, False)
                return popcount(jl) + popcount(jr)
            return popcount(left & empty) + popcount(right & empty)
        if captured:
            white ^= captured
        black ^= origin ^ dest
        empty = board ^ white ^ black
        own_kings = white & kings if kings else 0
        left, right = white >> half1, white >> half
        if own_kings:
            if ((((left & black) >> half1) | ((right & black) >> half)
                 | (((own_kings << half1) & black) << half1)
                 | (((own_kings << half) & black) << half)) & empty):
                return count_captures(white, black, kings, True, white)
            return (popcount(left & empty) + popcount(right & empty)
                    + popcount((own_kings << half1) & empty)
                    + popcount((own_kings << half) & empty))
        jl, jr = (left & black) >> half1, (right & black) >> half
        if (jl | jr) & empty:
            jl &= empty
            jr &= empty
            land = jl | jr
            if ((((land >> half1) & black) >> half1) | (((land >> half) & black) >> half)) \
                    & empty:
                return count_short_men_captures(jl, jr, black, empty, True)
            return popcount(jl) + popcount(jr)
        return popcount(left & empty) + popcount(right & empty)

    return count_short_after


def make_short_moves(rules: GeneratorRules, tables: MoveTables, captures: CaptureSearch,
                     capture_sources: Callable[[int, int, int, bool], int],
                     short_men_captures: Callable[..., None], chunked: bool = True
                     ) -> Callable[[int, int, int, bool], List[RawMove]]:
    """``moves(white, black, kings, white_to_move) -> list`` for the English family.

    Men's captures come from ``short_men_captures``; a side with kings and a
    capture goes to the general ``all_captures``.  The quiet moves come, with
    ``chunked`` (CPython's shape), from the chunk tables: men's steps whole masks
    at a time, eight tuples unpacked into the list, then kings' steps one by one;
    without (PyPy's shape, ``tables`` built without chunks), from the general
    ``quiet_moves`` of :mod:`.quiet`, one bit at a time, loops the JIT compiles
    (unpacking tuples is slow there).  The same moves in the same order.  This is
    the one part of the generator written in two shapes (English perft: the
    chunks are 8% faster on CPython, the bit loops 33% faster on PyPy).
    """
    board, half, half1, top, bottom = rules.board, rules.half, rules.half1, rules.top, rules.bottom
    all_captures = captures.all_captures
    white_jumps, white_hops = tables.white_jumps, tables.white_hops
    black_jumps, black_hops = tables.black_jumps, tables.black_hops
    chunk = tables.chunk
    quiet_moves = make_quiet_moves(rules, tables)

    def moves_short(white: int, black: int, kings: int, white_to_move: bool,
                    board: int = board, half: int = half, half1: int = half1,
                    white_chunks: tuple = tables.white_step_chunks,
                    black_chunks: tuple = tables.black_step_chunks, chunked: bool = chunked,
                    chunk: int = chunk, chunk2: int = 2 * chunk, chunk3: int = 3 * chunk,
                    mask: int = (1 << chunk) - 1) -> List[RawMove]:
        """See :func:`make_short_moves`."""
        empty = board ^ white ^ black
        out: List[RawMove]
        if white_to_move:
            own_kings = white & kings
            jl = (((white >> half1) & black) >> half1) & empty
            jr = (((white >> half) & black) >> half) & empty
            if own_kings:
                if jl | jr or ((((own_kings << half1) & black) << half1)
                               | (((own_kings << half) & black) << half)) & empty:
                    return all_captures(white, black, kings, True,
                                        capture_sources(white, black, kings, True), None)
            elif jl | jr:
                out = []
                onward = (((empty << half1) & black) << half1) | (((empty << half) & black) << half)
                short_men_captures(jl, jr, black, empty, onward, white_jumps, white_hops, top, out)
                return out
            if not chunked:
                return quiet_moves(white, black, kings, True)
            men = white ^ own_kings
            tl, tr = (men >> half1) & empty, (men >> half) & empty
            chunks = white_chunks
        else:
            own_kings = black & kings
            jl = (((black << half1) & white) << half1) & empty
            jr = (((black << half) & white) << half) & empty
            if own_kings:
                if jl | jr or ((((own_kings >> half1) & white) >> half1)
                               | (((own_kings >> half) & white) >> half)) & empty:
                    return all_captures(white, black, kings, False,
                                        capture_sources(white, black, kings, False), None)
            elif jl | jr:
                out = []
                onward = (((empty >> half1) & white) >> half1) | (((empty >> half) & white) >> half)
                short_men_captures(jl, jr, white, empty, onward, black_jumps, black_hops, bottom,
                                   out)
                return out
            if not chunked:
                return quiet_moves(white, black, kings, False)
            men = black ^ own_kings
            tl, tr = (men << half1) & empty, (men << half) & empty
            chunks = black_chunks
        (l0, l1, l2, l3), (r0, r1, r2, r3) = chunks
        out = [*l0[tl & mask], *l1[(tl >> chunk) & mask], *l2[(tl >> chunk2) & mask],
               *l3[tl >> chunk3], *r0[tr & mask], *r1[(tr >> chunk) & mask],
               *r2[(tr >> chunk2) & mask], *r3[tr >> chunk3]]
        if own_kings:
            append = out.append
            for s in (half1, half):
                t = (own_kings >> s) & empty
                while t:
                    b = t & -t
                    t ^= b
                    append((b << s, b, 0, False))
                t = (own_kings << s) & empty
                while t:
                    b = t & -t
                    t ^= b
                    append((b >> s, b, 0, False))
        return out

    return moves_short


def make_short_family(rules: GeneratorRules, tables: MoveTables, captures: CaptureSearch,
                      capture_sources: Callable[[int, int, int, bool], int],
                      traced: bool = TRACED) -> Family:
    """The English family's ``moves``, ``count`` and ``count_after`` (see :class:`Family`);
    ``traced``: ``moves`` in the shape PyPy's JIT wants (:func:`make_short_moves`)."""
    count_short_after = make_short_count_after(rules, captures.count_captures,
                                               make_count_short_men_captures(rules))
    moves_short = make_short_moves(rules, tables, captures, capture_sources,
                                   make_short_men_captures(rules), chunked=not traced)

    def count_short(white: int, black: int, kings: int, white_to_move: bool) -> int:
        """``len(moves(...))``: a null move by the other side, then its replies."""
        return count_short_after(white, black, kings, not white_to_move, NULL_MOVE)

    return Family(moves_short, count_short, count_short_after)
