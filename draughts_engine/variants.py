"""Rule sets as data.

A :class:`Variant` is a frozen record of everything that differs between the
draughts games this engine plays: board size, who moves first, how men and
kings move and capture, the capture-choice rule, promotion during a capture,
PDN identifiers and the draw rules.  Adding a variant means adding a record
(and, for a genuinely new rule, a flag the move generator reads).

Look variants up with :func:`get_variant`, which also knows the aliases used
by GUIs and other engines (``american`` -> ``english``, ``normal`` ->
``international``, ...).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple

__all__ = ["Variant", "UnknownVariantError", "get_variant", "variant_names", "VARIANTS",
           "ENGLISH", "RUSSIAN", "BRAZILIAN", "INTERNATIONAL"]

WHITE = "white"
BLACK = "black"


class UnknownVariantError(ValueError):
    """Raised for a variant name that is neither a variant nor an alias."""


@dataclass(frozen=True)
class DrawRules:
    """Move-count draw rules, counted in plies (a "move each" is two plies).

    Each limit is ``0`` when the variant does not have that rule.

    * ``repetitions``: the same position (pieces and side to move) occurring this
      many times is a draw.
    * ``kings_only_plies``: plies in a row with only king moves and no capture
      (International 25 moves each = 50 plies; Russian 15 moves = 30 plies).
    * ``no_progress_plies``: plies in a row without a man move or capture
      (English 40 moves each = 80 plies).
    * ``three_vs_one_plies``: with three pieces (at least one king) against a
      lone king, the stronger side must win within this many plies
      (International 16 moves each; Russian uses it for 3+ kings vs 1 king).
    * ``two_vs_one_plies``: two pieces (one a king) or fewer against a lone king
      (International 5 moves each).
    """

    repetitions: int = 3
    kings_only_plies: int = 0
    no_progress_plies: int = 0
    three_vs_one_plies: int = 0
    two_vs_one_plies: int = 0
    three_vs_one_all_kings: bool = False
    """How the three-vs-one rule counts: True (Russian) for three or more kings,
    and only kings, against a lone king; False (FMJD) for exactly three pieces,
    at least one of them a king, against a lone king."""


@dataclass(frozen=True)
class Variant:
    """One rule set.

    Squares are numbered 1..``squares`` in PDN order: row by row from the top
    of the diagram (Black's side), left to right; the dark squares of the top
    row are columns 1, 3, 5, ... .  White's men start on the highest numbers
    and move towards square 1; Black's move towards the highest numbers.
    """

    name: str
    size: int                       # board side: 8 or 10
    first: str                      # WHITE or BLACK: who moves first
    men_capture_backwards: bool
    flying_kings: bool
    majority_capture: bool          # must take the maximum number of pieces
    promote_during_capture: bool    # a man reaching the king row mid-capture continues as a king
    game_type: int                  # PDN [GameType]
    start_rows: int                 # rows of men per side at the start
    draw: DrawRules
    aliases: Tuple[str, ...] = ()
    algebraic: bool = False         # PDN moves for this variant are usually written a1-h8

    @property
    def squares(self) -> int:
        """Number of playable (dark) squares."""
        return self.size * self.size // 2

    @property
    def half(self) -> int:
        """Playable squares per row."""
        return self.size // 2

    def start_fen(self) -> str:
        """The PDN FEN of the start position."""
        n = self.start_rows * self.half
        side = "W" if self.first == WHITE else "B"
        return f"{side}:W{self.squares - n + 1}-{self.squares}:B1-{n}"

    def __repr__(self) -> str:
        return f"get_variant({self.name!r})"


ENGLISH = Variant(
    name="english", size=8, first=BLACK, men_capture_backwards=False, flying_kings=False,
    majority_capture=False, promote_during_capture=False, game_type=21, start_rows=3,
    draw=DrawRules(repetitions=3, no_progress_plies=80),
    aliases=("american", "checkers", "english-checkers"),
)
RUSSIAN = Variant(
    name="russian", size=8, first=WHITE, men_capture_backwards=True, flying_kings=True,
    majority_capture=False, promote_during_capture=True, game_type=25, start_rows=3,
    draw=DrawRules(repetitions=3, kings_only_plies=30, three_vs_one_plies=30,
                   three_vs_one_all_kings=True),
    aliases=("shashki",), algebraic=True,
)
BRAZILIAN = Variant(
    name="brazilian", size=8, first=WHITE, men_capture_backwards=True, flying_kings=True,
    majority_capture=True, promote_during_capture=False, game_type=26, start_rows=3,
    draw=DrawRules(repetitions=3, kings_only_plies=50, three_vs_one_plies=32, two_vs_one_plies=10),
    aliases=("brazil",), algebraic=True,
)
INTERNATIONAL = Variant(
    name="international", size=10, first=WHITE, men_capture_backwards=True, flying_kings=True,
    majority_capture=True, promote_during_capture=False, game_type=20, start_rows=4,
    draw=DrawRules(repetitions=3, kings_only_plies=50, three_vs_one_plies=32, two_vs_one_plies=10),
    aliases=("standard", "normal", "polish", "10x10"),
)

VARIANTS: Dict[str, Variant] = {v.name: v for v in (ENGLISH, RUSSIAN, BRAZILIAN, INTERNATIONAL)}
_LOOKUP: Dict[str, Variant] = {}
for _variant in VARIANTS.values():
    _LOOKUP[_variant.name] = _variant
    for _alias in _variant.aliases:
        _LOOKUP[_alias] = _variant
del _variant, _alias


def get_variant(name: "str | Variant") -> Variant:
    """Return the variant called ``name`` (case-insensitive, aliases allowed).

    >>> get_variant("American").name
    'english'
    """
    if isinstance(name, Variant):
        return name
    try:
        return _LOOKUP[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownVariantError(
            f"unknown variant {name!r} (known: {', '.join(variant_names())})") from None


def variant_names() -> Tuple[str, ...]:
    """Canonical names of all draughts variants."""
    return tuple(VARIANTS)
