"""Immutable draughts positions: bitboards, moves, FEN, hash key.

>>> p = Position.start("english")
>>> p.fen()
'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'
>>> len(p.legal_moves())
7
>>> p.play("11-15").turn
'white'
"""
from __future__ import annotations

import random
from typing import Dict, List, Optional, Tuple, Union

from .bitboard import Geometry, iter_bits, popcount
from .fullboard import geometry_of
from .errors import InvalidFenError, clip
from .move import Move
from .movegen import MoveGenerator, RawMove, generator_for
from .movegen.frisian import STATE_SHIFT, king_state, with_king_state
from .notation import format_move, parse_move, parse_square, resolve_notation, square_number
from .variants import ALGEBRAIC, BLACK, NUMERIC, WHITE, Variant, get_variant

__all__ = ["Position", "WHITE", "BLACK"]

_ZOBRIST_SEED = 0x5EED_D4A0
_ZOBRIST: Dict[int, Tuple[Tuple[int, ...], ...]] = {}


def _zobrist_table(geo: Geometry) -> Tuple[Tuple[int, ...], ...]:
    """Random 64-bit keys per (piece kind, bit index), fixed by a seed.

    Kinds: 0 white man, 1 black man, 2 white king, 3 black king; the last
    table holds one key: the side to move (xored in when Black is to move).
    """
    # Keyed by the layout's width as well: an all-squares 8x8 board has more bits.
    table = _ZOBRIST.get(geo.bit_count_total)
    if table is None:
        rng = random.Random(_ZOBRIST_SEED + geo.size)
        kinds = tuple(tuple(rng.getrandbits(64) for _ in range(geo.bit_count_total)) for _ in range(4))
        table = _ZOBRIST[geo.bit_count_total] = kinds + ((rng.getrandbits(64),),)
    return table


class Position:
    """A position: pieces, side to move and the variant's rules.

    Immutable: :meth:`play` returns a new position.  Equality and ``hash``
    cover variant, pieces and side to move.  Raw bitboards (see
    :mod:`.bitboard`) are exposed as ``white``, ``black`` and ``kings``.
    """

    __slots__ = ("variant", "generator", "white", "black", "kings", "white_to_move", "_key")

    def __init__(self, variant: Union[Variant, str], white: int, black: int, kings: int,
                 white_to_move: bool) -> None:
        """Build from raw bitboards (no validation; use :meth:`from_fen` for input)."""
        self.variant = get_variant(variant)
        self.generator: MoveGenerator = generator_for(self.variant)
        self.white = white
        self.black = black
        self.kings = kings
        self.white_to_move = white_to_move
        self._key: Optional[int] = None

    # ---- construction ---------------------------------------------------------
    @classmethod
    def start(cls, variant: Union[Variant, str] = "english") -> "Position":
        """The start position of a variant."""
        v = get_variant(variant)
        return cls.from_fen(v.start_fen(), v)

    @classmethod
    def from_fen(cls, fen: str, variant: Union[Variant, str] = "english") -> "Position":
        """Parse PDN FEN, e.g. ``B:W21-32:B1-12`` or ``W:WK47:B14,19,29,31,42``.

        Squares are numbers (ranges ``a-b`` allowed, ``K`` prefix for kings)
        or, on 8x8 boards, algebraic names (``c3``, as Russian and Brazilian
        FENs are written: ``W:Wa1,c3:Bh8``); numbers always mean the PDN
        numbering (see :class:`~.variants.Variant`).  Fields after the two
        colour fields (move counters such as ``H0``/``F1``) and a final ``.``
        are ignored.  Both colour fields must be there, though either may hold
        no squares (``W:W:B`` and ``W::`` are an empty board; ``W``, ``W:`` or
        ``W:W`` is an error).
        Raises :class:`InvalidFenError` naming the bad part (a long FEN is quoted
        cut short).
        """
        v = get_variant(variant)
        geo = geometry_of(v)
        if not isinstance(fen, str):
            raise InvalidFenError(f"FEN must be text, got {type(fen).__name__}")
        text = fen.strip().strip('"').rstrip(".").strip()
        if not text:
            raise InvalidFenError("empty FEN")
        fields = [f.strip() for f in text.split(":")]
        turn = fields[0].upper()
        if turn not in ("W", "B"):
            raise InvalidFenError.of_fen(fen, f"side to move must be W or B, "
                                              f"got {clip(fields[0], 16)}")
        seen: Dict[str, bool] = {}
        boards = {"W": [0, 0], "B": [0, 0]}  # colour -> [pieces, kings]
        king_moves: List[str] = []  # king-move fields (``KW28/2``) where the variant has the rule
        for part in fields[1:]:
            if not part:
                continue
            if v.king_move_limit and part[:1] in "Kk" and part[1:2].upper() in ("W", "B"):
                king_moves.append(part)
                continue
            colour = part[0].upper()
            if colour not in ("W", "B"):
                if part[0] in "HhFf" and part[1:].isdigit():
                    continue  # move counters from some tools
                if part[0] in "HhFf":
                    raise InvalidFenError.of_fen(
                        fen, f"move counter {clip(part, 16)} must be {part[0]} and a number "
                        f"(it is otherwise ignored)")
                raise InvalidFenError.of_fen(fen, f"field {clip(part, 16)} must start with "
                                                  f"W or B (or be a move counter H<n> or F<n>)")
            if colour in seen:
                raise InvalidFenError.of_fen(fen, f"colour {colour} given twice")
            seen[colour] = True
            for item in part[1:].split(","):
                item = item.strip()
                if not item:
                    continue
                king = item[:1] in ("K", "k")
                body = item[1:] if king else item
                for square in _squares_of_item(body, geo, fen):
                    bit = geo.bit(square)
                    if (boards["W"][0] | boards["B"][0]) & bit:
                        raise InvalidFenError.of_fen(fen, f"square {square} is given twice")
                    boards[colour][0] |= bit
                    if king:
                        boards[colour][1] |= bit
        missing = [c for c in ("W", "B") if c not in seen]
        # a colour may be left out only where its field stands empty (B::B1, an empty W field)
        if len(missing) > sum(1 for part in fields[1:] if not part):
            raise InvalidFenError.of_fen(
                fen, f"no {' and no '.join(missing)} field: both colours' fields are needed, "
                f"empty for a side without pieces (as in W:W21,22:B)")
        white, white_kings = boards["W"]
        black, black_kings = boards["B"]
        bad_white = (white ^ white_kings) & geo.top_row
        bad_black = (black ^ black_kings) & geo.bottom_row
        if bad_white or bad_black:
            side, bad = ("white", bad_white) if bad_white else ("black", bad_black)
            raise InvalidFenError.of_fen(
                fen, f"{side} man on its promotion row (square {geo.squares_of(bad)[0]})")
        kings = white_kings | black_kings
        for part in king_moves:
            kings = _read_king_moves(part, v, geo, white, black, kings, fen)
        return cls(v, white, black, kings, turn == "W")

    # ---- properties -------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        """Board geometry (square numbering and bit layout)."""
        return self.generator.geometry

    @property
    def turn(self) -> str:
        """``'white'`` or ``'black'``: the side to move."""
        return WHITE if self.white_to_move else BLACK

    @property
    def raw(self) -> Tuple[int, int, int, bool]:
        """``(white, black, kings, white_to_move)`` for the hot-path functions."""
        return self.white, self.black, self.kings, self.white_to_move

    def key(self) -> Tuple[int, int, int, bool]:
        """Exact hashable identity of pieces and side to move (the raw tuple)."""
        return self.white, self.black, self.kings, self.white_to_move

    @property
    def zobrist(self) -> int:
        """64-bit Zobrist hash of pieces and side to move (computed once)."""
        if self._key is None:
            table = _zobrist_table(self.geometry)
            key = 0 if self.white_to_move else table[4][0]
            for kind, bb in enumerate((self.white & ~self.kings, self.black & ~self.kings,
                                       self.white & self.kings, self.black & self.kings)):
                keys = table[kind]
                for bit in iter_bits(bb):
                    key ^= keys[bit.bit_length() - 1]
            self._key = key
        return self._key

    def piece_at(self, square: int) -> Optional[str]:
        """``'w'``/``'b'`` for a man, ``'W'``/``'B'`` for a king, None if empty."""
        bit = self.geometry.bit(square)
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        return None

    def counts(self) -> Dict[str, int]:
        """Piece counts: ``white_men``, ``white_kings``, ``black_men``, ``black_kings``."""
        return {
            "white_men": popcount(self.white & ~self.kings),
            "white_kings": popcount(self.white & self.kings),
            "black_men": popcount(self.black & ~self.kings),
            "black_kings": popcount(self.black & self.kings),
        }

    # ---- moves ---------------------------------------------------------------------
    def raw_moves(self) -> List[RawMove]:
        """Legal moves as generator tuples (fast)."""
        return self.generator.moves(self.white, self.black, self.kings, self.white_to_move)

    def legal_moves(self) -> List[Move]:
        """Legal moves as :class:`Move` values, in generator order."""
        raw = self.raw_moves()
        if not raw or not raw[0][2]:
            sq = self.geometry.square_of_bit
            return [Move(sq(m[0]), sq(m[1]), (), bool(m[3]), (sq(m[0]), sq(m[1])), m) for m in raw]
        return [self._capture_move(m, paths[0]) for m, paths in self.capture_paths().items()]

    def capture_paths(self) -> Dict[RawMove, List[Tuple[int, ...]]]:
        """Every capture with all its landing-square paths (bit indices)."""
        return self.generator.capture_paths(self.white, self.black, self.kings, self.white_to_move)

    def _capture_move(self, raw: RawMove, index_path: Tuple[int, ...]) -> Move:
        names = self.geometry.square_of_index
        path = tuple(names[i] for i in index_path)
        return Move(path[0], path[-1], tuple(self.geometry.squares_of(raw[2])), bool(raw[3]), path, raw)

    def move_variants(self) -> List[Tuple[Move, List[Tuple[int, ...]]]]:
        """Legal moves with every PDN square path that denotes each (for notation)."""
        raw = self.raw_moves()
        if not raw or not raw[0][2]:
            return [(m, [m.path]) for m in self.legal_moves()]
        names = self.geometry.square_of_index
        out = []
        for m, paths in self.capture_paths().items():
            sq_paths = [tuple(names[i] for i in p) for p in paths]
            out.append((self._capture_move(m, paths[0]), sq_paths))
        return out

    def has_capture(self) -> bool:
        """Whether the side to move must capture."""
        return self.generator.has_capture(self.white, self.black, self.kings, self.white_to_move)

    def play(self, move: Union[Move, str]) -> "Position":
        """The position after ``move`` (a legal :class:`Move`, or move text).

        Text is parsed with :func:`.notation.parse_move` (raising its named
        errors); a :class:`Move` is trusted to be legal here.
        """
        if isinstance(move, str):
            move = parse_move(self, move)
        return self.play_raw(move.raw)

    def play_raw(self, raw: RawMove) -> "Position":
        """The position after a generator move tuple (trusted to be legal)."""
        w, b, k = self.generator.play(self.white, self.black, self.kings, self.white_to_move, raw)
        return Position(self.variant, w, b, k, not self.white_to_move)

    # ---- text -----------------------------------------------------------------------------
    def fen(self, notation: Optional[str] = NUMERIC) -> str:
        """PDN FEN: ``W:W21,22:BK1,5`` (side, then White's and Black's squares, ``K`` for kings).

        ``notation`` ``'algebraic'`` (8x8) writes ``W:Wc3,e3:BKb8`` (squares
        in alphabetical order, as lidraughts and pydraughts write Russian and
        Brazilian FENs); None writes the variant's own notation.  The default
        stays numeric whatever the variant.
        """
        geo = self.geometry
        algebraic = resolve_notation(notation, self.variant) == ALGEBRAIC
        kings = self.kings

        def side(colour: str, pieces: int) -> str:
            if algebraic:
                named = sorted((geo.algebraic(s), s) for s in geo.squares_of(pieces))
                items = [("K" if kings & geo.bit(s) else "") + name for name, s in named]
            else:
                items = [("K" if kings & geo.bit(s) else "") + str(s) for s in geo.squares_of(pieces)]
            return colour + ",".join(items)

        text = f"{'W' if self.white_to_move else 'B'}:{side('W', self.white)}:{side('B', self.black)}"
        if self.variant.king_move_limit and kings >> STATE_SHIFT:
            # The king-move count of the variants that limit it (a field of our own: ``KW28/2``).
            for colour, is_white in (("W", True), ("B", False)):
                index, count = king_state(kings, is_white)
                if count:
                    name = geo.square_of_index[index]
                    square = geo.algebraic(name) if algebraic else str(name)
                    text += f":K{colour}{square}/{count}"
        return text

    def move_text(self, move: Move, notation: Optional[str] = None) -> str:
        """Text of a move of this position in ``notation`` (None: the variant's own,
        ``c3-d4`` in Russian, ``32-28`` in International); see :func:`.notation.format_move`."""
        return format_move(move, self.variant, notation)

    def diagram(self) -> List[str]:
        """Rows of the board, top (square 1) first: ``w b W B`` pieces, ``.`` empty dark, `` `` light."""
        geo = self.geometry
        rows = []
        for row in range(geo.size):
            cells = []
            for col in range(geo.size):
                square = geo.square_at(row, col)
                cells.append(" " if not square else (self.piece_at(square) or "."))
            rows.append(" ".join(cells))
        return rows

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self.variant is other.variant and self.white == other.white and self.black == other.black
                and self.kings == other.kings and self.white_to_move == other.white_to_move)

    def __hash__(self) -> int:
        return hash((self.variant.name, self.white, self.black, self.kings, self.white_to_move))

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r}, {self.variant.name!r})"

    def __str__(self) -> str:
        return "\n".join(self.diagram())


def _read_king_moves(part: str, variant: Variant, geo: Geometry, white: int, black: int,
                     kings: int, fen: str) -> int:
    """``kings`` with the king-move count of a FEN field ``K<colour><square>/<count>``.

    The square must hold a king of that colour whose side still has men, and the
    count must be 1 to the variant's limit (docs/variants-orthogonal.md).
    """
    colour = part[1].upper()
    square_text, _, count_text = part[2:].partition("/")
    square = parse_square(square_text.strip(), geo)
    count = square_number(count_text.strip(), variant.king_move_limit)
    own = white if colour == "W" else black
    if not square or not count:
        raise InvalidFenError.of_fen(fen, f"king-move field {clip(part, 16)} must be "
                                          f"K<colour><square>/<1-{variant.king_move_limit}>")
    bit = geo.bit(square)
    if not own & kings & bit or not own & ~kings:
        side = "white" if colour == "W" else "black"
        raise InvalidFenError.of_fen(fen, f"king-move field {clip(part, 16)} needs a "
                                          f"{side} king on {square_text} and men of its side")
    if king_state(kings, colour == "W")[1]:
        raise InvalidFenError.of_fen(fen, f"king-move field for {colour} given twice")
    return with_king_state(kings, colour == "W", bit.bit_length() - 1, count)


def _squares_of_item(body: str, geo: Geometry, fen: str) -> List[int]:
    """Squares of one FEN item: ``12``, ``5-9`` or (8x8) ``c3``."""
    if "-" in body:
        low_text, _, high_text = body.partition("-")
        low, high = _square_of_text(low_text, geo, fen), _square_of_text(high_text, geo, fen)
        if low > high:
            raise InvalidFenError.of_fen(fen, f"range {clip(body, 16)} runs backwards")
        return list(range(low, high + 1))
    return [_square_of_text(body, geo, fen)]


def _square_of_text(text: str, geo: Geometry, fen: str) -> int:
    text = text.strip()
    square = parse_square(text, geo)
    if square:
        return square
    if text.isascii() and text.isdigit():
        shown = text if len(text) <= 16 else text[:16] + "..."
        raise InvalidFenError.of_fen(fen, f"square {shown} is off the board (1-{geo.squares})")
    raise InvalidFenError.of_fen(fen, f"bad square {clip(text, 16)}")
