"""The move generator's basics: :data:`RawMove`, :class:`GeneratorRules`, :class:`Family`,
:class:`MoveGeneratorProtocol`.

The rule facts themselves live in :class:`~draughts_engine.variants.Variant`
and the square layout in :class:`~draughts_engine.bitboard.Geometry`;
:class:`GeneratorRules` only copies the few the generator's loops need into
one flat object, so every part of the generator binds them the same way and
under the same names.
"""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Protocol, Tuple, runtime_checkable

from ..bitboard import REVERSE, Geometry, GeometryProtocol
from ..fullboard import DOWN, LEFT, ORTHOGONAL, ORTHOGONAL_REVERSE, RIGHT, UP
from ..variants import CROWN_GOAL, Variant

__all__ = ["RawMove", "NULL_MOVE", "GeneratorRules", "ALL_DIRECTIONS", "EIGHT_WAY",
           "EIGHT_WAY_REVERSE", "Family", "MoveGeneratorProtocol", "PositionFn"]

#: A move in hot code: (origin bit, destination bit, captured mask, promotes).
#: Origin and destination are one-bit masks (equal when a king ends a capture
#: where it started); ``promotes`` says whether the moving man becomes a king.
RawMove = Tuple[int, int, int, bool]

#: A move that changes nothing (lets ``count`` share ``count_after``'s code).
NULL_MOVE: RawMove = (0, 0, 0, False)

#: The four direction indices of :mod:`~draughts_engine.bitboard`.
ALL_DIRECTIONS = (0, 1, 2, 3)

#: Frisian's eight directions: the diagonals of :mod:`~draughts_engine.bitboard` (0-3),
#: then up, down, left and right along the dark squares (4-7), and their opposites.
EIGHT_WAY = (0, 1, 2, 3, 4, 5, 6, 7)
EIGHT_WAY_REVERSE = (3, 2, 1, 0, 5, 4, 7, 6)


def eight_way_tables(geo: Geometry) -> Tuple[tuple, tuple]:
    """``neighbour`` and ``ray`` of a diagonal board for the directions of :data:`EIGHT_WAY`:
    along a row or a column, the next dark square is two squares away."""
    bits = geo.bit_count_total
    neighbour = [list(row) for row in geo.neighbour]
    ray = [list(row) for row in geo.ray]
    for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2)):
        near = [-1] * bits
        along: List[Tuple[int, ...]] = [()] * bits
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


def _step(geo: Geometry, near: Tuple[int, ...]) -> Tuple[int, int]:
    """``(shift, sources)`` of the direction whose neighbour table is ``near``."""
    sources = [i for i, j in enumerate(near) if j >= 0]
    return near[sources[0]] - sources[0], sum(1 << i for i in sources)


class GeneratorRules:
    """The rule flags of one variant and the shifts of its board, as plain attributes.

    Board (from :class:`~draughts_engine.bitboard.Geometry`):

    * ``geometry``: the board's :class:`Geometry`; ``board``: mask of the playable squares;
    * ``half`` / ``half1``: the two diagonal shift amounts (``half + 1``); White's men
      move by right shifts (towards bit 0, square 1), Black's by left shifts;
    * ``top`` / ``bottom``: White's and Black's promotion rows (masks);
    * ``directions``: the directions kings move and capture in (the four diagonals;
      Frisian's :data:`EIGHT_WAY`; Turkish's :data:`~draughts_engine.fullboard.ORTHOGONAL`);
    * ``neighbour[d][i]`` / ``ray[d][i]``: the bit index one step from bit index ``i``
      in direction ``d`` (-1 off the board), and all of them along the ray, nearest first;
    * ``reverse[d]``: the opposite direction (``reverse[-1] == -1``: "came from nowhere");
    * ``men_by_masks``: men's first jumps are diagonal shifts of whole-board masks (not
      in the orthogonal families, whose men are searched square by square);
    * ``steps[d]``: ``(shift, sources)``: one step in direction ``d`` moves a mask by
      ``shift`` bits (``x << shift``, a right shift when negative); ``sources``: the
      squares that have a neighbour that way (so a shift never wraps round a row).

    Rules (from :class:`~draughts_engine.variants.Variant`):

    * ``flying``: kings move and capture any distance; ``men_back``: men capture backwards;
    * ``majority``: the capture taking the most pieces is compulsory;
    * ``promote_in_capture``: a man reaching the far row during a capture is crowned
      at once and goes on capturing as a king;
    * ``white_men_dirs`` / ``black_men_dirs``: the directions in which men capture
      (Frisian: all eight; Turkish: forward and sideways);
    * ``short_family``: forward-only men and short kings (English checkers), which
      gets the specialised forms of :mod:`.short`.

    Rules of the later diagonal families (read only when the generator is built:
    a variant that has none of them gets exactly the code it had before):

    * ``precedence``: the capture-precedence criteria (``Variant.precedence``; Frisian's
      majority by value reads ``value`` for ``pieces``, and ``with_king`` is added where a
      king's capture goes first at equal value), applied by :mod:`.precedence`;
      ``capture_king_value``: a captured king's weight (a man: 100);
    * ``men_take_kings``: men may capture kings (False in Italian);
    * ``lands_behind``: a capturing king lands right behind each piece (Thai);
    * ``at_once``: captured pieces leave the board as they are jumped (Thai);
      ``turn_back``: a capturing king may then turn 180 degrees (Thai);
    * ``halts_behind_king``: killer's rule for a capture ending on a king;
    * ``rich``: one of the rules above needs the capture search that tracks them
      (:func:`~.captures.make_rich_capture_search`);
    * ``crown_ends_game``: breakthrough: a side whose opponent has a king has no move.
    """

    def __init__(self, variant: Variant) -> None:
        geo: Geometry = variant.geometry
        self.geometry = geo
        self.board = geo.board
        self.half = geo.half
        self.half1 = geo.half + 1
        self.bits = geo.bit_count_total
        self.top = geo.top_row
        self.bottom = geo.bottom_row
        self.flying = variant.flying_kings
        self.men_back = variant.men_capture_backwards
        self.majority = variant.majority_capture
        self.promote_in_capture = variant.promote_during_capture
        self.men_take_kings = variant.men_capture_kings
        self.lands_behind = variant.king_lands_behind
        self.at_once = variant.remove_during_capture
        self.turn_back = variant.king_may_turn_back
        self.halts_behind_king = variant.king_halts_behind_king
        tables = geo.neighbour, geo.ray
        directions: Tuple[int, ...]
        if variant.all_squares:  # Turkish: rows and columns only
            directions, reverse = ORTHOGONAL, ORTHOGONAL_REVERSE
            sideways = (LEFT, RIGHT) if variant.men_move_sideways else ()
            white_men, black_men = (UP,) + sideways, (DOWN,) + sideways
        elif variant.orthogonal_captures:  # Frisian: diagonals, rows and columns
            directions, reverse = EIGHT_WAY, EIGHT_WAY_REVERSE
            white_men = black_men = EIGHT_WAY
            tables = eight_way_tables(geo)
        else:
            directions, reverse = ALL_DIRECTIONS, REVERSE
            white_men = ALL_DIRECTIONS if self.men_back else (0, 1)
            black_men = ALL_DIRECTIONS if self.men_back else (2, 3)
        self.directions = directions
        self.neighbour, self.ray = tables
        self.reverse = reverse + (-1,)
        self.white_men_dirs, self.black_men_dirs = white_men, black_men
        #: Men's first jumps can be found on whole-board diagonal shifts (not Frisian, Turkish).
        self.men_by_masks = self.directions == ALL_DIRECTIONS
        self.steps = tuple(_step(geo, near) for near in self.neighbour)
        precedence = variant.precedence
        if variant.capture_king_value != 100:  # a captured king weighs more than a man
            precedence = tuple("value" if c == "pieces" else c for c in precedence)
        if variant.king_first_at_equal_value and "with_king" not in precedence:
            precedence += ("with_king",)
        self.precedence = precedence
        self.capture_king_value = variant.capture_king_value
        self.rich = (not self.men_take_kings or self.lands_behind or self.at_once
                     or self.halts_behind_king or "king_order" in self.precedence)
        self.crown_ends_game = variant.goal == CROWN_GOAL
        self.short_family = (not self.flying and not self.men_back and not self.rich
                             and not self.precedence)


class Family(NamedTuple):
    """The entry points written per family of variants (general, or English in :mod:`.short`)."""

    #: ``moves(white, black, kings, white_to_move) -> list``: all legal moves.
    moves: Callable[[int, int, int, bool], List[RawMove]]
    #: ``count(white, black, kings, white_to_move) -> int``: ``len(moves(...))``.
    count: Callable[[int, int, int, bool], int]
    #: ``count_after(white, black, kings, white_to_move, move) -> int``: ``count`` after
    #: the side to move plays ``move``.
    count_after: Callable[[int, int, int, bool, RawMove], int]


#: A function of a raw position ``(white, black, kings, white_to_move)``.
PositionFn = Callable[[int, int, int, bool], int]


@runtime_checkable
class MoveGeneratorProtocol(Protocol):
    """What every move generator offers (:class:`~.generator.MoveGenerator`,
    :class:`~.frisian.FrisianGenerator`, :class:`~.turkish.TurkishGenerator`): plain
    functions of a raw position, under the contracts of :class:`~.generator.MoveGenerator`."""

    variant: Variant
    geometry: GeometryProtocol
    moves: Callable[[int, int, int, bool], List[RawMove]]
    count: Callable[[int, int, int, bool], int]
    count_after: Callable[[int, int, int, bool, RawMove], int]
    captures: Callable[[int, int, int, bool], List[RawMove]]
    quiet_moves: Callable[[int, int, int, bool], List[RawMove]]
    has_capture: Callable[[int, int, int, bool], bool]
    has_quiet: Callable[[int, int, int, bool], bool]
    capture_paths: Callable[[int, int, int, bool], Dict[RawMove, List[Tuple[int, ...]]]]
    play: Callable[[int, int, int, bool, RawMove], Tuple[int, int, int]]
