"""Material signatures and the draw-rule count that governs each one.

A :class:`Material` is the piece count of a position: men and kings of each
colour.  Its name lists White's pieces, then ``v``, then Black's, kings first:
``KKvK`` is two white kings against a black king, ``KMvK`` a white king and man
against a black king.  A database is built for one *canonical* material; the
colour-reversed one (``KvKK``) is the same ending seen from the other side and
is probed by turning the board (see :mod:`.index`).

:func:`count_rule` says which move-count draw rule of the variant governs an
ending (read from :class:`~draughts_engine.variants.DrawRules`): the lone-king
ending limits, which only a change of ending class starts afresh (:func:`same_count`), or else the
no-progress / kings-only count, which every man move and capture starts afresh.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, List, Optional, Tuple

from ..bitboard import popcount
from ..variants import NORMAL_GOAL, Variant

__all__ = ["Material", "CountRule", "count_rule", "materials_up_to", "InvalidMaterialError",
           "unsupported_reason", "same_count"]


def unsupported_reason(variant: Variant) -> Optional[str]:
    """Why ``variant`` has no endgame tables, or None when they can be built and probed.

    The tables are solved for the usual goal (a side without a move has lost), index the
    dark squares of a diagonal board, and know a position by its pieces alone.
    """
    if variant.goal != NORMAL_GOAL:
        return f"{variant.name} is won another way ({variant.goal}); the tables are solved " \
               f"for the usual goal"
    if variant.all_squares:
        return f"{variant.name} is played on every square, along rows and files; the tables " \
               f"index the dark squares of a diagonal board"
    if variant.king_move_limit:
        return f"{variant.name} limits a king to {variant.king_move_limit} moves in a row, " \
               f"which a position's pieces do not tell; the tables know only the pieces"
    return None


class InvalidMaterialError(ValueError):
    """A material name that is not ``<white pieces>v<black pieces>`` in K and M letters."""


@dataclass(frozen=True, order=True)
class Material:
    """Men and kings of each colour; each side has at least one piece."""

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int

    @classmethod
    def of(cls, white: int, black: int, kings: int) -> "Material":
        """The material of raw bitboards."""
        wk = popcount(white & kings)
        bk = popcount(black & kings)
        return cls(popcount(white) - wk, wk, popcount(black) - bk, bk)

    @classmethod
    def parse(cls, name: str) -> "Material":
        """``KKvK`` -> Material(0, 2, 0, 1); raises :class:`InvalidMaterialError`."""
        text = name.strip().upper() if isinstance(name, str) else ""
        left, sep, right = text.partition("V")
        if not sep or not left or not right or set(left + right) - {"K", "M"}:
            raise InvalidMaterialError(f"bad material {name!r}: expected white then black "
                                       f"pieces as K/M letters, e.g. KKvK")
        return cls(left.count("M"), left.count("K"), right.count("M"), right.count("K"))

    @property
    def name(self) -> str:
        return ("K" * self.white_kings + "M" * self.white_men + "v"
                + "K" * self.black_kings + "M" * self.black_men)

    @property
    def pieces(self) -> int:
        return self.white_men + self.white_kings + self.black_men + self.black_kings

    @property
    def men(self) -> int:
        return self.white_men + self.black_men

    def flipped(self) -> "Material":
        """The same ending with the colours exchanged."""
        return Material(self.black_men, self.black_kings, self.white_men, self.white_kings)

    def canonical(self) -> "Material":
        """The one of this material and its flip that databases are built for
        (the side with more pieces, then more kings, is White)."""
        flip = self.flipped()
        mine = (self.white_men + self.white_kings, self.white_kings, self.black_kings)
        theirs = (flip.white_men + flip.white_kings, flip.white_kings, flip.black_kings)
        return self if mine >= theirs else flip

    @property
    def is_canonical(self) -> bool:
        return self.canonical() == self

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class CountRule:
    """The move-count draw rule that governs one material.

    ``limit``: plies the count may reach (0: no such rule).  ``men_reset``:
    whether a man move starts the count afresh (the no-progress and kings-only
    rules) or not (the lone-king ending limits, reset only by a capture or a
    promotion, which always change the material).
    """

    limit: int
    men_reset: bool
    name: str

    def allows(self, distance: int, counted: int) -> bool:
        """Whether a result ``distance`` plies away (to the move that ends the
        game or resets the count) comes before the count, at ``counted`` plies
        now, ends the game."""
        return not self.limit or distance <= self.limit - counted


def lone_king_limit(variant: Variant, material: Material) -> Optional[int]:
    """Ply limit of the lone-king (or one-each) ending class of ``material``, or None.

    The game record's reading (:meth:`~draughts_engine.variants.DrawRules.ending`);
    the Russian 7.2.6 counts of endings with a king each are left to the
    kings-only count here (see :func:`count_rule`).
    """
    ending = variant.draw.ending(*split(material))
    if ending is None or ending.kind == "balance":
        return None
    return ending.plies


def same_count(variant: Variant, before: Material, after: Material) -> bool:
    """Whether a capture or promotion from ``before`` to ``after`` keeps the
    lone-king count going (both in the same ending class), rather than
    starting the count afresh."""
    rules = variant.draw
    one, two = rules.ending(*split(before)), rules.ending(*split(after))
    return (one is not None and two is not None and one.kind != "balance"
            and one.key == two.key)


def count_rule(variant: Variant, material: Material) -> CountRule:
    """The count that decides whether a win in ``material`` comes in time.

    In a lone-king ending the ending's own limit governs: it is never longer than
    the kings-only count, which a man move may reset but which starts afresh
    with the ending (a capture or promotion starts both), so it never ends first.
    Known gap: the Russian counts the tables do not model (7.2.6, a 4-7 piece
    ending with a king each: 30 or 60 moves without a capture or promotion; 7.2.7,
    a lone king on the main road) can only end a game sooner than the tables say.
    """
    limit = lone_king_limit(variant, material)
    if limit is not None:
        return CountRule(limit, False, "lone-king ending")
    rules = variant.draw
    if rules.no_progress_plies:
        return CountRule(rules.no_progress_plies, True, "no man move or capture")
    if rules.kings_only_plies:
        return CountRule(rules.kings_only_plies, True, "kings only")
    return CountRule(0, True, "none")


def materials_up_to(pieces: int, canonical_only: bool = True) -> List[Material]:
    """Every material of 2..``pieces`` pieces (each side at least one), in build
    order: fewer pieces first, then fewer men (a promotion leads to one man
    fewer, a capture to fewer pieces, so each needs only earlier ones)."""
    out = []
    for total in range(2, pieces + 1):
        for m in _materials_of(total):
            if not canonical_only or m.is_canonical:
                out.append(m)
    out.sort(key=lambda m: (m.pieces, m.men, m.name))
    return out


def _materials_of(total: int) -> Iterator[Material]:
    for white in range(1, total):
        black = total - white
        for wk in range(white + 1):
            for bk in range(black + 1):
                yield Material(white - wk, wk, black - bk, bk)


def split(material: Material) -> Tuple[int, int, int, int]:
    """``(white men, white kings, black men, black kings)``."""
    return material.white_men, material.white_kings, material.black_men, material.black_kings
