"""Legal moves of Turkish draughts (all 64 squares, orthogonal moves): :class:`TurkishGenerator`.

The same contract as :class:`~.generator.MoveGenerator` (raw positions
``(white, black, kings, white_to_move)``, moves ``(origin, destination,
captured, promotes)``), on the all-squares layout of :mod:`..fullboard`
(``stride`` bits per row: up ``>> stride``, down ``<< stride``, left ``>> 1``,
right ``<< 1``; a step off the board lands on a ghost bit or outside).

The rules (docs/variants-orthogonal.md):

* men step one square forward or sideways and capture forward or sideways
  by jumping an adjacent piece onto the empty square behind it;
* kings move like rooks and capture at any distance along a row or column,
  landing on any empty square behind the piece;
* every captured piece leaves the board at once, so a later jump of the same
  move may pass its square, and a king may not turn 180 degrees between two
  captures;
* the capture taking the most pieces is compulsory (kings count as one);
* a man is crowned only if its move ends on the far row (a man reaching it in
  the middle of a capture goes on capturing as a man).

The capture search is the rich one of :mod:`.captures` (pieces removed as they
are jumped) with the rows and columns of :class:`~.rules.GeneratorRules`, the
majority rule of :mod:`.precedence`; the kings' slide is
:func:`~.masks.make_king_can_capture` (with Frisian); the entry points and
``play`` are the general family's of :mod:`.family`.  Here: the men's jumps on
masks and the quiet moves.

Names bound in the closures below: ``board`` the playable squares, ``stride``
the vertical shift, ``top``/``bottom`` the promotion rows of White/Black;
``empty``, ``own``, ``opp``, ``own_kings``, ``men`` as in :mod:`.masks`;
``s`` a shift, ``t`` the squares a set of pieces reaches by it, ``b`` one bit.
"""
from __future__ import annotations

from typing import List

from ..bitboard import popcount
from ..variants import Variant
from .captures import make_rich_capture_search
from .family import make_capture_paths, make_captures, make_general_family, play
from .masks import make_king_can_capture
from .rules import GeneratorRules, RawMove

__all__ = ["TurkishGenerator"]


class TurkishGenerator:
    """Legal moves of Turkish draughts; the public callables of
    :class:`~.generator.MoveGenerator`, under the same contracts."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        rules = GeneratorRules(variant)
        geo = rules.geometry
        self.geometry = geo
        self.play = play
        board, stride, top, bottom = geo.board, geo.stride, geo.top_row, geo.bottom_row

        king_can_capture = make_king_can_capture(rules)

        def capture_sources(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """The side to move's pieces that can capture (all its kings if one can); the
            men's jumps written out (forward and sideways)."""
            empty = board ^ white ^ black
            if white_to_move:
                men, opp = white & ~kings, black
                src = men & ((((empty << stride) & opp) << stride) | (((empty << 1) & opp) << 1)
                             | (((empty >> 1) & opp) >> 1))
            else:
                men, opp = black & ~kings, white
                src = men & ((((empty >> stride) & opp) >> stride) | (((empty << 1) & opp) << 1)
                             | (((empty >> 1) & opp) >> 1))
            own_kings = (white if white_to_move else black) & kings
            if own_kings and king_can_capture(own_kings, opp, empty):
                src |= own_kings
            return src

        def has_capture(white: int, black: int, kings: int, white_to_move: bool) -> bool:
            """Whether the side to move must capture."""
            return capture_sources(white, black, kings, white_to_move) != 0

        def quiet_moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            """Every non-capturing move (legal when there is no capture)."""
            empty = board ^ white ^ black
            out: List[RawMove] = []
            append = out.append
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                t = (men >> stride) & empty
                while t:
                    b = t & -t
                    t ^= b
                    append((b << stride, b, 0, b & top != 0))
            else:
                own_kings = black & kings
                men = black ^ own_kings
                t = (men << stride) & empty
                while t:
                    b = t & -t
                    t ^= b
                    append((b >> stride, b, 0, b & bottom != 0))
            # Sideways steps never reach the far row from below it (a man on it is a king).
            t = (men >> 1) & empty
            while t:
                b = t & -t
                t ^= b
                append((b << 1, b, 0, False))
            t = (men << 1) & empty
            while t:
                b = t & -t
                t ^= b
                append((b >> 1, b, 0, False))
            while own_kings:
                origin = own_kings & -own_kings
                own_kings ^= origin
                for s in (stride, 1):
                    b = (origin >> s) & empty
                    while b:
                        append((origin, b, 0, False))
                        b = (b >> s) & empty
                    b = (origin << s) & empty
                    while b:
                        append((origin, b, 0, False))
                        b = (b << s) & empty
            return out

        def count_quiet(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """``len(quiet_moves(...))`` from masks."""
            empty = board ^ white ^ black
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                n = popcount((men >> stride) & empty)
            else:
                own_kings = black & kings
                men = black ^ own_kings
                n = popcount((men << stride) & empty)
            n += popcount((men >> 1) & empty) + popcount((men << 1) & empty)
            if own_kings:
                for s in (stride, 1):
                    t = (own_kings >> s) & empty
                    while t:
                        n += popcount(t)
                        t = (t >> s) & empty
                    t = (own_kings << s) & empty
                    while t:
                        n += popcount(t)
                        t = (t << s) & empty
            return n

        def has_quiet(white: int, black: int, kings: int, white_to_move: bool) -> bool:
            """Whether the side to move has a non-capturing move."""
            empty = board ^ white ^ black
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                forward = men >> stride
            else:
                own_kings = black & kings
                men = black ^ own_kings
                forward = men << stride
            return bool((forward | (men >> 1) | (men << 1) | (own_kings >> stride)
                         | (own_kings << stride) | (own_kings >> 1) | (own_kings << 1)) & empty)

        search = make_rich_capture_search(rules)
        self.moves, self.count, self.count_after = make_general_family(
            search, capture_sources, quiet_moves, count_quiet)
        self.captures = make_captures(search, capture_sources)
        self.quiet_moves = quiet_moves
        self.has_capture = has_capture
        self.has_quiet = has_quiet
        self.capture_paths = make_capture_paths(search, capture_sources)

    def __repr__(self) -> str:
        return f"TurkishGenerator({self.variant!r})"
