"""Which captures a player may choose: :func:`make_precedence`, the one place of the rule.

Every capture search (:mod:`.captures`, used by every family, Frisian and Turkish
included) finds all capture sequences and hands them to the functions built
here; no other code compares captures by length or value
(``tests/test_rules_layout.py`` checks it).  The criteria come from the
variant (:attr:`~draughts_engine.variants.Variant.precedence`, read into
:attr:`~.rules.GeneratorRules.precedence`), compared in order, each "more is
better":

* ``pieces``: the pieces taken (the majority rule);
* ``value``: the pieces taken, a king weighing ``capture_king_value`` men in
  hundredths (Frisian: 1.99);
* ``with_king``: whether the capturing piece is a king;
* ``kings``: the kings taken;
* ``king_order``: how early the kings are taken (the bits of ``orders[move]``
  the rich capture search records, 1 for a king, first capture highest).
"""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Optional

from ..bitboard import popcount
from .rules import GeneratorRules, RawMove

__all__ = ["Precedence", "Select", "CountBest", "make_precedence"]

#: ``select(moves, kings, orders) -> moves``: of two or more captures (``kings``: the
#: kings before the move, ``orders``: None or the king order of each move), the ones
#: a player may choose, in their order, duplicates kept.
Select = Callable[[List[RawMove], int, Optional[Dict[RawMove, int]]], List[RawMove]]

#: ``count(found, kings, singles) -> int``: how many distinct captures ``select``
#: keeps of ``found`` and of ``singles`` more one-piece captures that are not in
#: ``found`` (counted on masks by the fast capture search, never built).
CountBest = Callable[[List[RawMove], int, int], int]


class Precedence(NamedTuple):
    """The capture-precedence rule of one variant (see :func:`make_precedence`)."""

    #: None when every capture may be chosen.
    select: Optional[Select]
    #: The count of what ``select`` keeps; None where one-piece captures cannot be
    #: counted apart (criteria other than ``pieces``: count ``select``'s result).
    count: Optional[CountBest]


def make_precedence(rules: GeneratorRules) -> Precedence:
    """The capture-precedence rule of ``rules.precedence``: the one function that
    compares captures (see the module docstring)."""
    criteria = rules.precedence
    if not criteria:
        def count_all(found: List[RawMove], kings: int, singles: int) -> int:
            return singles + len(set(found))
        return Precedence(None, count_all)

    if criteria == ("pieces",):
        def most_pieces(moves: List[RawMove], kings: int,
                        orders: Optional[Dict[RawMove, int]]) -> List[RawMove]:
            best = max(popcount(m[2]) for m in moves)
            return [m for m in moves if popcount(m[2]) == best]

        def count_most_pieces(found: List[RawMove], kings: int, singles: int) -> int:
            best = max(popcount(m[2]) for m in found)
            if best > 1:  # the one-piece captures lose
                return len(set(m for m in found if popcount(m[2]) == best))
            return singles + len(set(found))
        return Precedence(most_pieces, count_most_pieces)

    king_extra = rules.capture_king_value - 100  # a king's weight above a man's, in hundredths

    # One function per criterion: the measure of each move of a list.
    def pieces(moves: List[RawMove], kings: int, orders: Optional[Dict[RawMove, int]]) -> list:
        return [popcount(m[2]) for m in moves]

    def value(moves: List[RawMove], kings: int, orders: Optional[Dict[RawMove, int]]) -> list:
        return [popcount(m[2]) * 100 + popcount(m[2] & kings) * king_extra for m in moves]

    def with_king(moves: List[RawMove], kings: int, orders: Optional[Dict[RawMove, int]]) -> list:
        return [1 if m[0] & kings else 0 for m in moves]

    def kings_taken(moves: List[RawMove], kings: int,
                    orders: Optional[Dict[RawMove, int]]) -> list:
        return [popcount(m[2] & kings) for m in moves]

    def king_order(moves: List[RawMove], kings: int,
                   orders: Optional[Dict[RawMove, int]]) -> list:
        return [orders.get(m, 0) for m in moves] if orders else [0] * len(moves)

    by_name = {"pieces": pieces, "value": value, "with_king": with_king, "kings": kings_taken,
               "king_order": king_order}
    measures = tuple(by_name[c] for c in criteria)

    def by_criteria(moves: List[RawMove], kings: int,
                    orders: Optional[Dict[RawMove, int]]) -> List[RawMove]:
        # The best by the first criterion, then the best of those by the next...
        for measure in measures:
            values = measure(moves, kings, orders)
            best = max(values)
            moves = [m for m, v in zip(moves, values) if v == best]
            if len(moves) == 1:
                break
        return moves

    return Precedence(by_criteria, None)
