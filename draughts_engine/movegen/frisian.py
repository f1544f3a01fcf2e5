"""Legal moves of Frisian draughts (and Frysk!): :class:`FrisianGenerator`.

The same contract as :class:`~.generator.MoveGenerator`, on the 10x10 layout
of :mod:`..bitboard`, with the Frisian rules (docs/variants-orthogonal.md):

* men step diagonally forward; kings fly along the diagonals (the quiet moves
  of International draughts, reused from :mod:`.quiet`);
* every piece also captures along rows and columns: a man jumps the piece on
  the next dark square of its row (two columns away) or column (two rows away)
  onto the dark square behind it; a king captures at any distance in the eight
  directions and lands on any empty square behind the piece;
* captured pieces stay on the board until the move ends (they block and
  cannot be jumped twice); a man is crowned only if its move ends on the far row;
* the capture of the highest value is compulsory, a king weighing
  ``capture_king_value`` (199: more than one man, less than two); between
  captures of equal value one made by a king must be taken;
* the king-move limit: while a side has men, the same king may make at most
  ``king_move_limit`` non-capturing moves in a row.

The king-move count is part of the position: it rides in the ``kings`` word
above the board's bits (see :func:`king_state`), so positions that differ
only by it are different positions for equality, repetition and the
transposition table, and every generator call sees it.  ``play`` keeps it up
to date; the bits never meet a board mask.

Names bound in the closures below: ``board``, ``top``, ``bottom`` as in
:class:`~.rules.GeneratorRules`; ``neighbour[d][i]``/``ray[d][i]`` the bit
index one step / every step from bit index ``i`` in direction ``d`` of
:data:`DIRECTIONS` (the four diagonals of :mod:`..bitboard`, then up, down,
left, right); ``steps`` the ``(shift, sources)`` pairs that move a mask one
step in each direction (``sources``: the squares that have a neighbour that
way, so a shift never wraps round a row); in the capture search the names of
:mod:`.captures` (``origin``, ``index``, ``came``, ``captured``, ``opp``,
``empty``, ``path``, ``out``, ``paths``).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from ..bitboard import popcount
from ..variants import Variant
from .precedence import make_precedence
from .quiet import make_count_quiet, make_quiet_moves
from .rules import GeneratorRules, RawMove
from .tables import MoveTables

__all__ = ["FrisianGenerator", "DIRECTIONS", "STATE_SHIFT", "king_state", "with_king_state"]

CapturePaths = Dict[RawMove, List[Tuple[int, ...]]]

#: Direction indices: the diagonals of :mod:`..bitboard` (0-3), then the orthogonals.
UP, DOWN, LEFT, RIGHT = 4, 5, 6, 7
DIRECTIONS = (0, 1, 2, 3, UP, DOWN, LEFT, RIGHT)
REVERSE = (3, 2, 1, 0, DOWN, UP, RIGHT, LEFT, -1)

#: The king-move state sits in ``kings`` from this bit up (above any board's bits):
#: White's byte, then Black's; each byte is ``count | bit_index << 2`` of the king
#: that made the last ``count`` non-capturing moves in a row (0: none).
STATE_SHIFT = 64
BOARD_BITS = (1 << STATE_SHIFT) - 1


def king_state(kings: int, white: bool) -> Tuple[int, int]:
    """``(bit index, count)`` of ``white``'s (else Black's) restricted king, ``(-1, 0)`` if none."""
    byte = (kings >> (STATE_SHIFT + (0 if white else 8))) & 0xFF
    return (byte >> 2, byte & 3) if byte else (-1, 0)


def with_king_state(kings: int, white: bool, index: int, count: int) -> int:
    """``kings`` with ``white``'s (else Black's) king-move state set (count 0 clears it)."""
    shift = STATE_SHIFT + (0 if white else 8)
    kings &= ~(0xFF << shift)
    if count:
        kings |= (count | index << 2) << shift
    return kings


def _orthogonal_tables(rules: GeneratorRules) -> Tuple[tuple, tuple]:
    """``neighbour`` and ``ray`` for the eight directions of :data:`DIRECTIONS`."""
    geo = rules.geometry
    neighbour = [list(row) for row in geo.neighbour]
    ray = [list(row) for row in geo.ray]
    for d, (dr, dc) in ((UP, (-2, 0)), (DOWN, (2, 0)), (LEFT, (0, -2)), (RIGHT, (0, 2))):
        near = [-1] * rules.bits
        along = [()] * rules.bits
        for square in range(1, geo.squares + 1):
            row, col = geo.row_col(square)
            line = []
            r, c = row + dr, col + dc
            while geo.square_at(r, c):
                line.append(geo.square_bit_index[geo.square_at(r, c) - 1])
                r, c = r + dr, c + dc
            index = geo.square_bit_index[square - 1]
            near[index] = line[0] if line else -1
            along[index] = tuple(line)
        neighbour.append(near)
        ray.append(along)
    return tuple(tuple(n) for n in neighbour), tuple(tuple(r) for r in ray)


class FrisianGenerator:
    """Legal moves of Frisian draughts; the public callables of
    :class:`~.generator.MoveGenerator`, under the same contracts (a position's
    ``kings`` may carry the king-move state, see the module docstring)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        rules = GeneratorRules(variant)
        self.geometry = rules.geometry
        tables = MoveTables(rules)
        board, top, bottom = rules.board, rules.top, rules.bottom
        neighbour, ray = _orthogonal_tables(rules)
        geo = rules.geometry
        shifts = (-(geo.half + 1), -geo.half, geo.half, geo.half + 1,
                  -(2 * geo.half + 1), 2 * geo.half + 1, -1, 1)
        steps = tuple((shifts[d], geo.mask_of(geo.square_of_index[i] for i in range(rules.bits)
                                              if neighbour[d][i] >= 0))
                      for d in DIRECTIONS)
        select = make_precedence(rules).select
        assert select is not None
        limit = variant.king_move_limit
        generic_quiet = make_quiet_moves(rules, tables)
        generic_count_quiet = make_count_quiet(rules)
        half, half1 = geo.half, geo.half + 1

        def record(out: list, paths: Optional[dict], move: RawMove, path: tuple) -> None:
            out.append(move)
            if paths is not None:
                paths.setdefault(move, []).append(path)

        def man_jumps(origin: int, index: int, captured: int, opp: int, empty: int,
                      crown: int, path: tuple, out: list, paths: Optional[dict]) -> bool:
            """Extend a man's capture from ``index`` in all eight directions; True if it could."""
            extended = False
            for d in DIRECTIONS:
                over = neighbour[d][index]
                if over < 0:
                    continue
                victim = 1 << over
                if not opp & victim or captured & victim:
                    continue
                land = neighbour[d][over]
                if land < 0 or not (empty >> land) & 1:
                    continue
                extended = True
                if not man_jumps(origin, land, captured | victim, opp, empty, crown,
                                 path + (land,), out, paths):
                    land_bit = 1 << land
                    record(out, paths, (origin, land_bit, captured | victim, land_bit & crown != 0),
                           path + (land,))
            return extended

        def king_jumps(origin: int, index: int, came: int, captured: int, opp: int, empty: int,
                       path: tuple, out: list, paths: Optional[dict]) -> bool:
            """Extend a flying king's capture from ``index``; True if it could."""
            extended = False
            back = REVERSE[came]
            for d in DIRECTIONS:
                if d == back:
                    continue  # the piece just jumped blocks that way
                r = ray[d][index]
                n = len(r)
                k = 0
                while k < n and (empty >> r[k]) & 1:
                    k += 1
                if k >= n - 1:
                    continue
                victim = 1 << r[k]
                if not opp & victim or captured & victim:
                    continue
                k += 1
                if not (empty >> r[k]) & 1:
                    continue
                extended = True
                now_captured = captured | victim
                ends = []
                continued = False
                while k < n and (empty >> r[k]) & 1:
                    land = r[k]
                    if king_jumps(origin, land, d, now_captured, opp, empty, path + (land,),
                                  out, paths):
                        continued = True
                    elif not continued:
                        ends.append(land)
                    k += 1
                if not continued:
                    # A longer capture outweighs every shorter one: stop only where
                    # the capture cannot go on.
                    for land in ends:
                        record(out, paths, (origin, 1 << land, now_captured, False),
                               path + (land,))
            return extended

        def all_captures(white: int, black: int, kings: int, white_to_move: bool,
                         sources: int, paths: Optional[dict]) -> List[RawMove]:
            """Every legal capture: the highest value, a king's first at equal value."""
            if white_to_move:
                opp, crown = black, top
            else:
                opp, crown = white, bottom
            empty = board ^ white ^ black
            out: List[RawMove] = []
            while sources:
                bit = sources & -sources
                sources ^= bit
                index = bit.bit_length() - 1
                if kings & bit:
                    king_jumps(bit, index, -1, 0, opp, empty | bit, (index,), out, paths)
                else:
                    man_jumps(bit, index, 0, opp, empty | bit, crown, (index,), out, paths)
            if len(out) > 1:
                out = list(dict.fromkeys(select(out, kings, None)))
            return out

        def capture_sources(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """The side to move's pieces that can capture (all its kings if one can)."""
            empty = board ^ white ^ black
            if white_to_move:
                own, opp = white, black
            else:
                own, opp = black, white
            own_kings = own & kings
            men = own ^ own_kings
            src = 0
            for s, ok in steps:
                if s > 0:
                    # a man at x jumps to x + 2s over x + s; walk back from the landings
                    src |= men & ok & ((((empty >> s) & ok & opp) >> s))
                else:
                    src |= men & ok & ((((empty << -s) & ok & opp) << -s))
            if own_kings and king_can_capture(own_kings, opp, empty):
                src |= own_kings
            return src

        def king_can_capture(own_kings: int, opp: int, empty: int) -> bool:
            """Whether one of ``own_kings`` can capture (all of them slide at once)."""
            for s, ok in steps:
                if s > 0:
                    t = (own_kings & ok) << s
                    while t:
                        if (((t & opp & ok) << s) & empty):
                            return True
                        t = ((t & empty & ok) << s)
                else:
                    s = -s
                    t = (own_kings & ok) >> s
                    while t:
                        if (((t & opp & ok) >> s) & empty):
                            return True
                        t = ((t & empty & ok) >> s)
            return False

        def has_capture(white: int, black: int, kings: int, white_to_move: bool) -> bool:
            """Whether the side to move must capture."""
            return capture_sources(white, black, kings, white_to_move) != 0

        def blocked_king(kings: int, white_to_move: bool) -> int:
            """The bit of the side to move's king that may not move quietly (0: none)."""
            byte = (kings >> (STATE_SHIFT if white_to_move else STATE_SHIFT + 8)) & 0xFF
            if byte and byte & 3 >= limit:
                return 1 << (byte >> 2)
            return 0

        def quiet_moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            """Every non-capturing move, without the blocked king's."""
            out = generic_quiet(white, black, kings, white_to_move)
            blocked = blocked_king(kings, white_to_move) if kings > BOARD_BITS else 0
            if blocked:
                out = [m for m in out if m[0] != blocked]
            return out

        def count_quiet(white: int, black: int, kings: int, white_to_move: bool) -> int:
            if kings > BOARD_BITS and blocked_king(kings, white_to_move):
                return len(quiet_moves(white, black, kings, white_to_move))
            return generic_count_quiet(white, black, kings, white_to_move)

        def has_quiet(white: int, black: int, kings: int, white_to_move: bool) -> bool:
            """Whether the side to move has a non-capturing move (the blocked king aside)."""
            empty = board ^ white ^ black
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                if ((men >> half) | (men >> half1)) & empty:
                    return True
            else:
                own_kings = black & kings
                men = black ^ own_kings
                if ((men << half) | (men << half1)) & empty:
                    return True
            if own_kings and kings > BOARD_BITS:
                own_kings &= ~blocked_king(kings, white_to_move)
            return bool(own_kings and ((own_kings >> half) | (own_kings >> half1)
                                       | (own_kings << half) | (own_kings << half1)) & empty)

        def play(white: int, black: int, kings: int, white_to_move: bool,
                 move: RawMove) -> Tuple[int, int, int]:
            """``(white, black, kings)`` after ``move``, the king-move state updated."""
            origin, dest, captured, promotes = move
            state = kings >> STATE_SHIFT
            kings &= BOARD_BITS
            king_move = kings & origin and not captured
            if captured:
                kings &= ~captured
            if kings & origin:
                kings ^= origin ^ dest
            elif promotes:
                kings |= dest
            if white_to_move:
                white ^= origin ^ dest
                black ^= captured
                own, other, own_shift, other_shift = white, black, 0, 8
            else:
                white ^= captured
                black ^= origin ^ dest
                own, other, own_shift, other_shift = black, white, 8, 0
            if not (state or king_move):
                return white, black, kings
            mine = (state >> own_shift) & 0xFF
            theirs = (state >> other_shift) & 0xFF
            if king_move and own & ~kings:
                count = (mine & 3) + 1 if mine and 1 << (mine >> 2) == origin else 1
                mine = count | (dest.bit_length() - 1) << 2
            else:
                mine = 0
            if theirs and (captured >> (theirs >> 2) & 1 or not other & ~kings):
                theirs = 0  # its king was taken, or its side has no men left
            return white, black, kings | (mine << own_shift | theirs << other_shift) << STATE_SHIFT

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
                return len(all_captures(white, black, kings, white_to_move, sources, None))
            return count_quiet(white, black, kings, white_to_move)

        def count_after(white: int, black: int, kings: int, white_to_move: bool,
                        move: RawMove) -> int:
            """``count`` of the position after ``move``."""
            w, b, k = play(white, black, kings, white_to_move, move)
            return count(w, b, k, not white_to_move)

        def captures(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            """The legal captures (empty when there is none)."""
            sources = capture_sources(white, black, kings, white_to_move)
            return all_captures(white, black, kings, white_to_move, sources, None) if sources else []

        def capture_paths(white: int, black: int, kings: int, white_to_move: bool) -> CapturePaths:
            """Every landing-square path (bit indices, origin first) of every legal capture."""
            paths: CapturePaths = {}
            sources = capture_sources(white, black, kings, white_to_move)
            legal = all_captures(white, black, kings, white_to_move, sources, paths)
            return {m: paths[m] for m in legal}

        self.moves: Callable[[int, int, int, bool], List[RawMove]] = moves
        self.count = count
        self.count_after = count_after
        self.captures = captures
        self.quiet_moves = quiet_moves
        self.has_capture = has_capture
        self.has_quiet = has_quiet
        self.capture_paths = capture_paths
        self.play = play

    def __repr__(self) -> str:
        return f"FrisianGenerator({self.variant!r})"
