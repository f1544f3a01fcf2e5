"""Whole-board tests: which pieces can capture, must the side capture, can it move quietly.

Each ``make_*`` function binds one variant's :class:`~.rules.GeneratorRules`
into a closure and returns it; the closures take a raw position
``(white, black, kings, white_to_move)``.  They work on whole-board masks: a
piece can jump in a direction when an opponent's piece is one step that way
and the square behind it is empty; only flying kings need a slide.

Names bound in these closures (the same in every part of the generator):

* ``board``: mask of the playable squares; ``empty``: ``board ^ white ^ black``;
* ``half`` / ``half1``: the two diagonal shifts (``half + 1``); ``x >> s`` moves
  every piece of ``x`` one step up (White's way), ``x << s`` one step down;
* ``own`` / ``opp``: the pieces of the side to move and of its opponent;
  ``own_kings`` / ``men``: ``own`` split by kind;
* ``flying`` / ``men_back``: the variant flags of :class:`~.rules.GeneratorRules`.
"""
from __future__ import annotations

from typing import Callable

from .rules import GeneratorRules

__all__ = ["make_capture_sources", "make_stepwise_capture_sources", "make_king_can_capture",
           "make_has_capture", "make_has_quiet"]

def make_capture_sources(rules: GeneratorRules) -> Callable[[int, int, int, bool], int]:
    """``capture_sources(white, black, kings, white_to_move) -> int``.

    The mask of the side to move's pieces that can start a capture (0: none).
    Exact for men and short kings; when a flying king can capture, all the
    side's kings are included.
    """
    board, half, half1, flying, men_back = (rules.board, rules.half, rules.half1, rules.flying,
                                            rules.men_back)
    if not rules.men_take_kings:
        return _make_sources_men_spare_kings(rules)

    def capture_sources(white: int, black: int, kings: int, white_to_move: bool) -> int:
        empty = board ^ white ^ black
        if white_to_move:
            own, opp = white, black
        else:
            own, opp = black, white
        own_kings = own & kings
        men = own ^ own_kings
        short = own if not flying else men  # pieces that jump one step only
        if white_to_move:
            up_movers = short if men_back or not flying else men
            down_movers = short if men_back else (0 if flying else own_kings)
        else:
            down_movers = short if men_back or not flying else men
            up_movers = short if men_back else (0 if flying else own_kings)
        # A piece jumps up by s when opp is at -s and the landing at -2s is empty.
        src = (up_movers & ((((empty << half1) & opp) << half1)
                            | (((empty << half) & opp) << half))) if up_movers else 0
        if down_movers:
            src |= down_movers & ((((empty >> half1) & opp) >> half1)
                                  | (((empty >> half) & opp) >> half))
        if flying and own_kings:
            # Slide every king at once along each direction (``t``: the squares
            # reached over empty ones) until one stands before an opponent's piece
            # with an empty square behind it.
            for s in (half1, half):
                t = own_kings >> s
                while t:
                    if ((t & opp) >> s) & empty:
                        return src | own_kings
                    t = (t & empty) >> s
                t = own_kings << s
                while t:
                    if ((t & opp) << s) & empty:
                        return src | own_kings
                    t = (t & empty) << s
        return src

    return capture_sources


def _make_sources_men_spare_kings(rules: GeneratorRules) -> Callable[[int, int, int, bool], int]:
    """``capture_sources`` where men cannot take kings (Italian): short kings, and
    men that capture forwards only (``victims``: the opponent's men)."""
    board, half, half1 = rules.board, rules.half, rules.half1
    if rules.flying or rules.men_back:
        raise ValueError("men that spare kings are written for short kings and forward men")

    def jumps(empty: int, victims: int, up: bool) -> int:
        """The squares from which a piece jumps one of ``victims`` onto ``empty``, up
        (White's way) or down."""
        if up:
            return (((empty << half1) & victims) << half1) | (((empty << half) & victims) << half)
        return (((empty >> half1) & victims) >> half1) | (((empty >> half) & victims) >> half)

    def capture_sources(white: int, black: int, kings: int, white_to_move: bool) -> int:
        empty = board ^ white ^ black
        own, opp = (white, black) if white_to_move else (black, white)
        own_kings = own & kings
        src = (own ^ own_kings) & jumps(empty, opp & ~kings, white_to_move)
        if own_kings:
            src |= own_kings & (jumps(empty, opp, True) | jumps(empty, opp, False))
        return src

    return capture_sources


def make_king_can_capture(rules: GeneratorRules) -> Callable[[int, int, int], bool]:
    """``king_can_capture(own_kings, opp, empty) -> bool`` for flying kings, direction by
    direction of ``rules.steps``: whether one of ``own_kings`` can capture (all of them
    slide at once).  ``s`` a step's shift, ``ok`` its source squares
    (:attr:`~.rules.GeneratorRules.steps`)."""
    if not rules.flying:
        raise ValueError("the stepwise king slide is written for flying kings")
    king_steps = tuple(rules.steps[d] for d in rules.directions)

    def king_can_capture(own_kings: int, opp: int, empty: int) -> bool:
        for s, ok in king_steps:
            if s > 0:
                t = (own_kings & ok) << s
                while t:
                    if ((t & opp & ok) << s) & empty:
                        return True
                    t = (t & empty & ok) << s
            else:
                s = -s
                t = (own_kings & ok) >> s
                while t:
                    if ((t & opp & ok) >> s) & empty:
                        return True
                    t = (t & empty & ok) >> s
        return False

    return king_can_capture


def make_stepwise_capture_sources(rules: GeneratorRules) -> Callable[[int, int, int, bool], int]:
    """``capture_sources`` of the eight-way family (Frisian), direction by direction of
    ``rules.steps``: men jump in their directions, flying kings slide in all of the
    board's (all the side's kings are included when one can capture)."""
    board = rules.board
    white_men = tuple(rules.steps[d] for d in rules.white_men_dirs)
    black_men = tuple(rules.steps[d] for d in rules.black_men_dirs)
    king_can_capture = make_king_can_capture(rules)

    def capture_sources(white: int, black: int, kings: int, white_to_move: bool) -> int:
        empty = board ^ white ^ black
        if white_to_move:
            own, opp, men_steps = white, black, white_men
        else:
            own, opp, men_steps = black, white, black_men
        own_kings = own & kings
        men = own ^ own_kings
        src = 0
        for s, ok in men_steps:
            # a man at x jumps to x + 2s over x + s: walk back from the empty landings
            if s > 0:
                src |= men & ok & (((empty >> s) & ok & opp) >> s)
            else:
                src |= men & ok & (((empty << -s) & ok & opp) << -s)
        if own_kings and king_can_capture(own_kings, opp, empty):
            src |= own_kings
        return src

    return capture_sources


def make_has_capture(rules: GeneratorRules,
                     capture_sources: Callable[[int, int, int, bool], int]
                     ) -> Callable[[int, int, int, bool], bool]:
    """``has_capture(white, black, kings, white_to_move) -> bool``: whether the side
    to move must capture (the search's hot test).

    Men and short kings are tested on whole-board masks; only flying kings need
    ``capture_sources``' slide.
    """
    board, half, half1, flying, men_back = (rules.board, rules.half, rules.half1, rules.flying,
                                            rules.men_back)
    if not rules.men_take_kings:
        def has_capture_sparing_kings(white: int, black: int, kings: int,
                                      white_to_move: bool) -> bool:
            return capture_sources(white, black, kings, white_to_move) != 0
        return has_capture_sparing_kings

    def has_capture(white: int, black: int, kings: int, white_to_move: bool) -> bool:
        empty = board ^ white ^ black
        if white_to_move:
            own, opp = white, black
        else:
            own, opp = black, white
        own_kings = own & kings
        if own_kings and flying:
            return capture_sources(white, black, kings, white_to_move) != 0
        if men_back or own_kings:
            every_way = own if men_back else own_kings  # pieces that jump both ways
            if ((((every_way >> half) & opp) >> half) | (((every_way >> half1) & opp) >> half1)
                    | (((every_way << half) & opp) << half)
                    | (((every_way << half1) & opp) << half1)) & empty:
                return True
            if men_back:
                return False
        men = own ^ own_kings
        if white_to_move:
            return ((((men >> half) & opp) >> half) | (((men >> half1) & opp) >> half1)) & empty != 0
        return ((((men << half) & opp) << half) | (((men << half1) & opp) << half1)) & empty != 0

    return has_capture


def make_has_quiet(rules: GeneratorRules) -> Callable[[int, int, int, bool], bool]:
    """``has_quiet(white, black, kings, white_to_move) -> bool``: whether the side to
    move has a non-capturing move (the rule's answer when it has no capture)."""
    board, half, half1 = rules.board, rules.half, rules.half1

    def has_quiet(white: int, black: int, kings: int, white_to_move: bool) -> bool:
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
        return bool(own_kings and ((own_kings >> half) | (own_kings >> half1)
                                   | (own_kings << half) | (own_kings << half1)) & empty)

    return has_quiet
