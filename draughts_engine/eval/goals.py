"""Evaluations of the variants whose goal is not the usual one (:data:`..variants.LOSE_GOAL`,
:data:`..variants.CROWN_GOAL`): :func:`for_losing` turns an evaluation's sign (antidraughts),
:func:`build_race` scores the crowning race (breakthrough).
"""
from __future__ import annotations

from typing import Callable, Dict, Tuple

from ..bitboard import popcount
from ..variants import Variant
from .terms import MAN_VALUE, board_tables, signed_terms

__all__ = ["for_losing", "build_race"]


def for_losing(build: Callable[[Variant], Callable[..., object]]
               ) -> Callable[[Variant], Callable[..., object]]:
    """Antidraughts: the usual evaluation with its sign turned (material is a burden)."""
    def build_losing(variant: Variant) -> Callable[..., object]:
        inner = build(variant)

        def losing(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
            if detail:
                return [(name, -value) for name, value in  # type: ignore[union-attr]
                        inner(white, black, kings, white_to_move, True)]
            return -inner(white, black, kings, white_to_move)  # type: ignore[operator]

        return losing
    return build_losing


def build_race(variant: Variant) -> Callable[..., object]:
    """Breakthrough: material, and a crowning race (the first king wins).

    ``race``: per man, a bonus that grows with the square of the rows it has
    advanced, and a man whose way to the promotion row is free (nothing in its
    cone, :meth:`.terms.BoardTables.cone`) gets a bonus that grows as it gets closer.
    """
    t = board_tables(variant.size)
    geo = t.geo
    size = geo.size
    pc = popcount
    MAN, KING = MAN_VALUE, variant.king_value
    # per bit: (cone, row bonus, free-path bonus) for each colour
    white_info: Dict[int, Tuple[int, int, int]] = {}
    black_info: Dict[int, Tuple[int, int, int]] = {}
    for n in range(1, geo.squares + 1):
        row = geo.row_col(n)[0]
        bit = geo.bit(n)
        w_ahead, b_ahead = size - 1 - row, row            # rows advanced
        white_info[bit] = (t.cone(n, True), 2 * w_ahead * w_ahead, 600 // (row + 1))
        black_info[bit] = (t.cone(n, False), 2 * b_ahead * b_ahead, 600 // (size - row))

    def race(white: int, black: int, kings: int, white_to_move: bool, detail: bool = False):
        material = (pc(white) - pc(black)) * MAN + (pc(white & kings) - pc(black & kings)) * (KING - MAN)
        occupied = white | black
        score = 0
        for men, info, sign in ((white & ~kings, white_info, 1), (black & ~kings, black_info, -1)):
            while men:
                bit = men & -men
                men ^= bit
                cone, bonus, free = info[bit]
                score += sign * (bonus + (free if not cone & occupied else 0))
        if detail:
            return signed_terms(("material", "race"), (material, score), white_to_move)
        total = material + score
        return total if white_to_move else -total

    return race
