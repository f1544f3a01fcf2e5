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

The capture search is the common one of :mod:`.captures` with the eight
directions of :class:`~.rules.GeneratorRules` (men square by square), the
precedence by value of :mod:`.precedence`; the entry points are the general
family's of :mod:`.generator`, with this module's ``play``.

Which pieces can capture: :func:`~.masks.make_stepwise_capture_sources`
(with Turkish).  Here: the king-move state, the quiet moves without the
blocked king, and ``play``.
"""
from __future__ import annotations

from typing import List, Tuple

from ..variants import Variant
from .captures import make_capture_search
from .family import make_capture_paths, make_captures, make_general_family
from .family import play as play_board
from .masks import make_has_quiet, make_stepwise_capture_sources
from .quiet import make_count_quiet, make_quiet_moves
from .rules import EIGHT_WAY, GeneratorRules, RawMove
from .tables import MoveTables

__all__ = ["FrisianGenerator", "DIRECTIONS", "STATE_SHIFT", "king_state", "with_king_state"]

#: Direction indices: the diagonals of :mod:`..bitboard` (0-3), then up, down, left, right.
DIRECTIONS = EIGHT_WAY

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


class FrisianGenerator:
    """Legal moves of Frisian draughts; the public callables of
    :class:`~.generator.MoveGenerator`, under the same contracts (a position's
    ``kings`` may carry the king-move state, see the module docstring)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        rules = GeneratorRules(variant)
        self.geometry = rules.geometry
        tables = MoveTables(rules)
        capture_sources = make_stepwise_capture_sources(rules)
        limit = variant.king_move_limit
        generic_quiet = make_quiet_moves(rules, tables)
        generic_count_quiet = make_count_quiet(rules)
        generic_has_quiet = make_has_quiet(rules)

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
            if kings > BOARD_BITS and blocked_king(kings, white_to_move):
                return bool(quiet_moves(white, black, kings, white_to_move))
            return generic_has_quiet(white, black, kings, white_to_move)

        def play(white: int, black: int, kings: int, white_to_move: bool,
                 move: RawMove) -> Tuple[int, int, int]:
            """``(white, black, kings)`` after ``move``, the king-move state updated."""
            origin, dest, captured, _ = move
            state = kings >> STATE_SHIFT
            kings &= BOARD_BITS
            king_move = kings & origin and not captured
            white, black, kings = play_board(white, black, kings, white_to_move, move)
            if not (state or king_move):
                return white, black, kings
            if white_to_move:
                own, other, own_shift, other_shift = white, black, 0, 8
            else:
                own, other, own_shift, other_shift = black, white, 8, 0
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

        search = make_capture_search(rules)
        self.moves, self.count, self.count_after = make_general_family(
            search, capture_sources, quiet_moves, count_quiet, play)
        self.captures = make_captures(search, capture_sources)
        self.quiet_moves = quiet_moves
        self.has_capture = has_capture
        self.has_quiet = has_quiet
        self.capture_paths = make_capture_paths(search, capture_sources)
        self.play = play

    def __repr__(self) -> str:
        return f"FrisianGenerator({self.variant!r})"
