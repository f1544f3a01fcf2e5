"""Opening books: moves chosen in advance for the positions near the start of a game.

A book maps a position (its 64-bit Zobrist key, :attr:`Position.zobrist
<.position.Position.zobrist>`) to the moves worth playing there, each with a weight.
:meth:`OpeningBook.choose` picks one of them at random in proportion to the weights, with a
:class:`random.Random` the caller owns (a seeded generator picks the same moves again).

The file format (UTF-8 text, one record a line)::

    # draughts-engine opening book 1
    # variant english
    a1b2c3d4e5f60718 11-15:100 9-13:41 10-15:35

* the first line is ``# draughts-engine opening book 1`` (the format's version);
* ``# variant <name>`` names the variant (as :func:`~.variants.get_variant` knows it), before
  any record;
* every other line starting with ``#`` is a comment; blank lines are skipped;
* a record is the position's key in 16 lower-case hexadecimal digits, then one or more
  ``<move>:<weight>`` pairs separated by spaces: the move in PDN numeric text (``11-15``,
  ``15x24x31``: every landing square of a capture), the weight a positive integer.

A key names its position once.  A move that is not legal in the position being probed (a
key collision, or a book of other rules) makes the whole record count as absent.
:func:`builtin_book` reads the book shipped for a variant (``data/book-<variant>.txt``).

>>> book = OpeningBook.parse(["# draughts-engine opening book 1", "# variant english",
...                           f"{Position.start('english').zobrist:016x} 11-15:3 9-13:1"])
>>> [(m.pdn(), w) for m, w in book.moves(Position.start("english"))]
[('11-15', 3), ('9-13', 1)]
>>> book.choose(Position.start("english"), random.Random(1)).pdn() in ("11-15", "9-13")
True
>>> book.moves(Position.start("english").play("11-15")) is None
True
"""
from __future__ import annotations

import os
import random
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .errors import DraughtsError, clip
from .move import Move
from .notation import parse_move
from .position import Position
from .variants import UnknownVariantError, Variant, get_variant

__all__ = ["OpeningBook", "BookError", "BookPlayer", "BOOK_HEADER", "BUILTIN", "DEFAULT_BOOK_DEPTH",
           "builtin_book", "builtin_book_path", "DATA_DIR"]

BOOK_HEADER = "# draughts-engine opening book 1"
"""The first line of every book file (the number is the format's version)."""

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

BUILTIN = "<builtin>"
"""The book file name that means the book shipped for the game's variant."""

DEFAULT_BOOK_DEPTH = 20
"""Plies from the start of a game during which the book is asked (the ``BookDepth`` option)."""

MAX_WEIGHT = 10 ** 9
"""The largest weight a record may give a move."""


class BookError(ValueError):
    """A book file that cannot be read or is not a book; the message names the file and line."""


Entry = Tuple[Tuple[str, int], ...]


class OpeningBook:
    """The records of one book: key -> ((move text, weight), ...); see the module docstring."""

    def __init__(self, variant: Union[Variant, str], records: Dict[int, Entry],
                 source: str = "") -> None:
        self.variant = get_variant(variant)
        self.records = records
        self.source = source

    # ---- reading and writing ----------------------------------------------------------
    @classmethod
    def load(cls, path: str) -> "OpeningBook":
        """Read a book file; :class:`BookError` (one line, naming the file) if it cannot be
        read or breaks the format."""
        try:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise BookError(f"cannot read book {path}: {reason}") from None
        return cls.parse(lines, path)

    @classmethod
    def parse(cls, lines: Iterable[str], source: str = "<book>") -> "OpeningBook":
        """A book from the lines of a book file (``source`` names it in errors)."""
        variant: Optional[Variant] = None
        records: Dict[int, Entry] = {}
        number = 0
        for number, raw in enumerate(lines, 1):
            line = raw.strip()
            where = f"{source}:{number}"
            if number == 1:
                if line != BOOK_HEADER:
                    raise BookError(f"{where}: not a book (the first line must be "
                                    f"{BOOK_HEADER!r}, got {clip(line)})")
                continue
            if not line:
                continue
            if line.startswith("#"):
                words = line[1:].split()
                if words[:1] == ["variant"] and variant is None and not records:
                    variant = _variant_of(words[1:], where)
                continue
            if variant is None:
                raise BookError(f"{where}: a record before the '# variant <name>' line")
            key, entry = _parse_record(line, where)
            if key in records:
                raise BookError(f"{where}: key {key:016x} given twice")
            records[key] = entry
        if number == 0:
            raise BookError(f"{source}: empty file, not a book")
        if variant is None:
            raise BookError(f"{source}: no '# variant <name>' line")
        return cls(variant, records, source)

    def lines(self) -> List[str]:
        """The book as the lines of a book file (records sorted by key)."""
        out = [BOOK_HEADER, f"# variant {self.variant.name}"]
        for key in sorted(self.records):
            pairs = " ".join(f"{text}:{weight}" for text, weight in self.records[key])
            out.append(f"{key:016x} {pairs}")
        return out

    def save(self, path: str) -> None:
        """Write the book to ``path`` (replaced whole)."""
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(self.lines()) + "\n")

    def add(self, position: Position, moves: Sequence[Tuple[Move, int]]) -> None:
        """Set the record of ``position``: ``moves`` with their positive weights."""
        if position.variant.name != self.variant.name:
            raise BookError(f"a {position.variant.name} position in a {self.variant.name} book")
        entry = tuple((move.pdn(), int(weight)) for move, weight in moves)
        if not entry or any(not 1 <= weight <= MAX_WEIGHT for _, weight in entry):
            raise BookError(f"a record needs moves with weights in 1..{MAX_WEIGHT}")
        self.records[position.zobrist] = entry

    def __len__(self) -> int:
        return len(self.records)

    # ---- probing ----------------------------------------------------------------------
    def moves(self, position: Position) -> Optional[List[Tuple[Move, int]]]:
        """The book's (move, weight) pairs for ``position``, or None when it is not in the
        book (another variant, no record, or a record with a move illegal here)."""
        if position.variant.name != self.variant.name:
            return None
        entry = self.records.get(position.zobrist)
        if entry is None:
            return None
        found: List[Tuple[Move, int]] = []
        for text, weight in entry:
            try:
                found.append((parse_move(position, text), weight))
            except DraughtsError:
                return None  # a key collision or a book of other rules: not this position
        return found

    def choose(self, position: Position, rng: random.Random) -> Optional[Move]:
        """A book move of ``position`` drawn in proportion to the weights, or None."""
        found = self.moves(position)
        if not found:
            return None
        pick = rng.randrange(sum(weight for _, weight in found))
        for move, weight in found:
            pick -= weight
            if pick < 0:
                return move
        return found[-1][0]  # not reached


class BookPlayer:
    """Which book a game plays from, until which ply, with which random numbers.

    ``path`` is a book file or :data:`BUILTIN` (the book shipped for the variant of the
    position asked about, read on first use); ``max_ply``: :meth:`choose` answers only
    before that many plies of the game; ``seed`` 0 draws a new choice every time, any other
    value the same move in the same position.
    """

    def __init__(self, path: str = BUILTIN, max_ply: int = DEFAULT_BOOK_DEPTH,
                 seed: int = 0, book: Optional[OpeningBook] = None) -> None:
        """``book``: the book of ``path``, already read (else it is read on first use)."""
        self.path = path
        self.max_ply = max_ply
        self.seed = seed
        self._books: Dict[str, Optional[OpeningBook]] = {}
        if book is not None:
            self._books[book.variant.name] = book

    def book_for(self, variant: Variant) -> Optional[OpeningBook]:
        """The book used for ``variant``'s games, or None (no book of that variant).

        Raises :class:`BookError` when ``path`` cannot be read."""
        if variant.name not in self._books:
            if self.path == BUILTIN:
                self._books[variant.name] = builtin_book(variant)
            else:
                book = OpeningBook.load(self.path)
                self._books[variant.name] = book if book.variant.name == variant.name else None
        return self._books[variant.name]

    def choose(self, position: Position, ply: int) -> Optional[Move]:
        """A book move for ``position``, reached ``ply`` plies into the game, or None."""
        if ply >= self.max_ply:
            return None
        book = self.book_for(position.variant)
        if book is None:
            return None
        rng = random.Random(f"{self.seed}:book:{position.zobrist:016x}") if self.seed \
            else random.Random()
        return book.choose(position, rng)


def _variant_of(words: List[str], where: str) -> Variant:
    if len(words) != 1:
        raise BookError(f"{where}: expected '# variant <name>'")
    try:
        return get_variant(words[0])
    except UnknownVariantError:
        raise BookError(f"{where}: unknown variant {clip(words[0])}") from None


def _parse_record(line: str, where: str) -> Tuple[int, Entry]:
    fields = line.split()
    key_text = fields[0]
    if len(key_text) != 16 or any(c not in "0123456789abcdef" for c in key_text):
        raise BookError(f"{where}: the key must be 16 lower-case hex digits, got {clip(key_text)}")
    if len(fields) < 2:
        raise BookError(f"{where}: a record needs at least one move:weight pair")
    entry = []
    for pair in fields[1:]:
        text, sep, weight = pair.rpartition(":")
        if not sep or not text or not weight.isdigit() or not weight.isascii() \
                or len(weight) > 10 or not 1 <= int(weight) <= MAX_WEIGHT:
            raise BookError(f"{where}: expected <move>:<weight> with a weight in "
                            f"1..{MAX_WEIGHT}, got {clip(pair)}")
        if any(c not in "0123456789-x" for c in text):
            raise BookError(f"{where}: a move in PDN numbers (11-15, 15x24x31), got {clip(text)}")
        entry.append((text, int(weight)))
    return int(key_text, 16), tuple(entry)


def builtin_book_path(variant: Union[Variant, str]) -> str:
    """Where the book shipped for ``variant`` lives (the file may not exist)."""
    return os.path.join(DATA_DIR, f"book-{get_variant(variant).name}.txt")


def builtin_book(variant: Union[Variant, str]) -> Optional[OpeningBook]:
    """The book shipped for ``variant``, or None when there is none."""
    path = builtin_book_path(variant)
    if not os.path.exists(path):
        return None
    return OpeningBook.load(path)
