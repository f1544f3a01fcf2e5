"""Reading PDN, one game at a time, in constant memory.

The lexer (:func:`tokens`) turns lines into tags, words and result tokens
and skips comments (``{...}``, ``;`` to the end of the line), variations
(``(...)``, nested) and their comments, whatever lines they span, and the
PDN escape lines (a ``%`` in the first column, outside a comment: the whole
line is ignored); with ``notes=True`` (:func:`note_tokens`) it keeps the comments and
variations as tokens instead.  A byte order mark at the start of the input is skipped.  The reader
(:func:`stream_records`) turns tokens into games through a small interface,
so that this module needs no game class: ``make_game(variant, fen)`` returns
an object with a ``tags`` dict and ``push(move_text)``; :mod:`.pdn` passes
:class:`~.game.Game`.  Without ``make_game`` the moves are only collected as
text, not replayed: many times faster, for tools that need tags and results.  Only the current game and its lines are held, so a
file of a million games is read in the memory of one.

Every problem is an :class:`InvalidPdnError` naming the source and the
1-based line: a stray ``}``, ``]`` or ``)``, an unterminated tag, comment or
variation, a malformed tag, an unknown ``GameType``, a bad FEN, a bad or
illegal move, a number without its '.' where a move is due (``2. 0815``: neither
a move number nor a move), bytes that are not text in the encoding.  Numbers of any
length are read without conversion errors.

>>> [t.text for t in tokens(["[Event \\"x\\"] 1. 11-15 {a", "comment} (9-14 {c}) 23-19 *"], "s")]
['Event "x"', '1.', '11-15', '23-19', '*']
"""
from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from .errors import DraughtsError, InvalidPdnError, clip
from .variants import ENGLISH, Variant, get_variant, variant_for_game_type

__all__ = ["Token", "PdnGame", "MoveNode", "tokens", "note_tokens", "tag_end", "stream_records",
           "open_lines", "RESULT_TOKENS", "PdnSource"]

RESULT_TOKENS = frozenset({"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*", "0-0"})
"""Words that end a game's movetext."""

PdnSource = Union[str, bytes, "os.PathLike[str]", Iterable[str], Iterable[bytes]]
"""PDN text (``str``), encoded PDN (``bytes``), a path (``pathlib.Path``, any
``os.PathLike``) or an open file / iterable of lines (text or bytes).  A plain
``str`` is always PDN text, never a file name."""

_SPECIAL = re.compile(r"[\[\]{}();]")
_IN_VARIATION = re.compile(r"[(){};]")
_CLOSERS = {"]": "[", "}": "{", ")": "("}


class Token(NamedTuple):
    """One lexical item.  ``kind``: ``tag`` (``text`` is what stands inside the
    brackets), ``word``, ``result``, or ``error`` (``text`` says what is wrong)."""

    kind: str
    text: str
    line: int


def tag_end(line: str, start: int, stop: Optional[int] = None) -> int:
    """Index of the ``]`` closing a tag whose text starts at ``start`` (before ``stop``, by
    default the end of ``line``), or -1: a ``]`` inside a string does not close it, and in a
    string a backslash escapes the next character.  (The one scanner of tags: the reader's
    and the terminal replay's.)"""
    in_string = False
    index, length = start, len(line) if stop is None else stop
    while index < length:
        ch = line[index]
        if in_string and ch == "\\":
            index += 2
            continue
        if ch == '"':
            in_string = not in_string
        elif ch == "]" and not in_string:
            return index
        index += 1
    return -1


def tokens(lines: Iterable[str], source: str = "<pdn>", notes: bool = False) -> Iterator[Token]:
    """Tokens of PDN lines, with their 1-based line numbers.

    Comments and variations are skipped, unless ``notes`` is true: then a ``comment`` token
    comes per ``{...}`` or ``;`` comment (its text stripped; the line where it starts), and
    ``open`` and ``close`` for the brackets of a variation, whose moves come as ``word`` tokens
    like the main line's (a tag inside a variation is then an error).

    Problems come as ``error`` tokens (the caller decides whether to stop);
    after a stray closing bracket the lexer goes on with the next character.
    """
    comment_line = 0      # line where the open comment began; 0 when none is open
    comment: List[str] = []  # the open comment's text so far (notes only)
    depth = 0             # nesting of the open variation
    variation_line = 0    # line where the outermost open variation began
    for number, line in enumerate(lines, 1):
        if not comment_line and line.startswith("%"):
            continue  # an escape line: the rest of it is for other programs
        index, length = 0, len(line)
        while index < length:
            if comment_line:
                end = line.find("}", index)
                if end < 0:
                    if notes:
                        comment.append(line[index:])
                    break
                if notes:
                    comment.append(line[index:end])
                    yield Token("comment", " ".join("".join(comment).split()), comment_line)
                    comment = []
                comment_line = 0
                index = end + 1
                continue
            if depth and not notes:  # a variation skipped: only its brackets count
                match = _IN_VARIATION.search(line, index)
                if match is None:
                    break
                ch = match.group()
                index = match.end()
                if ch == "(":
                    depth += 1
                elif ch == ")":
                    depth -= 1
                elif ch == "{":
                    comment_line = number
                elif ch == "}":
                    yield Token("error", "'}' without '{'", number)
                else:  # ';': the rest of the line is a comment
                    break
                continue
            match = _SPECIAL.search(line, index)
            end = match.start() if match else length
            for word in line[index:end].split():
                yield Token("result" if word in RESULT_TOKENS else "word", word, number)
            if match is None:
                break
            ch = match.group()
            index = end + 1
            if ch == "[":
                if depth:  # (notes only: a skipped variation never gets here)
                    yield Token("error", "a tag inside a variation", number)
                    break
                close = tag_end(line, index)
                if close < 0:
                    yield Token("error", "unterminated tag (a tag ends on its line)", number)
                    break
                yield Token("tag", line[index:close], number)
                index = close + 1
            elif ch == "{":
                comment_line = number
            elif ch == "(":
                if not depth:
                    variation_line = number
                depth += 1
                if notes:
                    yield Token("open", "(", number)
            elif ch == ")" and depth:  # (notes only, as for tags)
                depth -= 1
                yield Token("close", ")", number)
            elif ch == ";":
                text = " ".join(line[index:].split()) if notes else ""
                if text:
                    yield Token("comment", text, number)
                break
            else:
                yield Token("error", f"'{ch}' without '{_CLOSERS[ch]}'", number)
    if comment_line:
        yield Token("error", "unterminated comment ('{' without '}')", comment_line)
    elif depth:
        yield Token("error", "unterminated variation ('(' without ')')", variation_line)


def note_tokens(lines: Iterable[str], source: str = "<pdn>") -> Iterator[Token]:
    """:func:`tokens` with comments and variations kept (``notes=True``)."""
    return tokens(lines, source, notes=True)


@dataclass(eq=False)
class MoveNode:
    """One node of a game tree read with its variations (:attr:`PdnGame.tree`).

    ``move`` is the move as written (without move number, NAG or ``!?``; empty at the root),
    ``comments`` the comments written after it (at the root: before the first move),
    ``children`` the moves that may follow: the main continuation first, then the
    variations in the order written; ``parent`` is None at the root.
    """

    move: str = ""
    comments: List[str] = field(default_factory=list)
    children: List["MoveNode"] = field(default_factory=list)
    parent: Optional["MoveNode"] = field(default=None, repr=False)

    def add(self, move: str) -> "MoveNode":
        """A new child playing ``move`` (the main continuation if it is the first)."""
        child = MoveNode(move, parent=self)
        self.children.append(child)
        return child

    def main_line(self) -> List[str]:
        """The moves from here along the first children."""
        out, node = [], self
        while node.children:
            node = node.children[0]
            out.append(node.move)
        return out


@dataclass
class PdnGame:
    """One game read from PDN, with where it stands in its source.

    ``game`` is the game record (None when the moves are not replayed, or
    when reading with ``strict=False`` and the header itself was bad);
    ``tags`` the tags as read (the game's own ``tags`` dict); ``result`` the
    result token that ended the movetext, None when the game ended without one
    (a cut-off file, or the next game's tags); ``line``/``end_line`` the
    1-based lines of its first and last token; ``text`` those lines as read;
    ``move_texts`` the moves as written (move numbers, comments, NAGs and
    ``!?`` suffixes left out); ``error`` (``strict=False`` only) the problem
    that stopped it, its moves being those before the problem; ``tree`` (read with
    ``variations=True`` only) the moves with their variations and comments, as a
    :class:`MoveNode` root whose main line is :attr:`move_texts`.
    """

    game: Any
    tags: Dict[str, str]
    result: Optional[str]
    source: str
    line: int
    end_line: int
    text: str = field(repr=False)
    move_texts: Tuple[str, ...] = field(default=(), repr=False)
    error: Optional[InvalidPdnError] = field(default=None)
    tree: Optional[MoveNode] = field(default=None, repr=False)


def open_lines(pdn: PdnSource, encoding: str = "utf-8") -> Tuple[Iterable[Any], Optional[Any], str]:
    """``(lines, handle to close or None, default source name)`` for any :data:`PdnSource`."""
    if isinstance(pdn, str):
        return io.StringIO(pdn), None, "<pdn>"
    if isinstance(pdn, (bytes, bytearray)):
        return io.BytesIO(bytes(pdn)), None, "<pdn>"
    if isinstance(pdn, os.PathLike):
        handle = open(pdn, "rb")
        return handle, handle, os.fspath(pdn)
    name = getattr(pdn, "name", None)
    return pdn, None, name if isinstance(name, str) else "<pdn>"


def _small_int(text: str, digits: int = 6) -> Optional[int]:
    """``text`` as a non-negative int if it is ASCII digits short enough, else None."""
    if text.isascii() and text.isdigit() and len(text.lstrip("0")) <= digits:
        return int(text)
    return None


def _unescape(text: str) -> str:
    """A PDN string's text: ``\\"`` is ``"`` and ``\\\\`` is ``\\`` (any other backslash stays)."""
    if "\\" not in text:
        return text
    out: List[str] = []
    index, length = 0, len(text)
    while index < length:
        ch = text[index]
        if ch == "\\" and index + 1 < length and text[index + 1] in '"\\':
            ch = text[index + 1]
            index += 1
        out.append(ch)
        index += 1
    return "".join(out)


def _parse_tag(raw: str) -> Optional[Tuple[str, str]]:
    name, _, rest = raw.strip().partition(" ")
    rest = rest.strip()
    if (not name or len(rest) < 2 or rest[0] != '"' or rest[-1] != '"'
            or not name.isprintable() or '"' in name):
        return None
    return name, _unescape(rest[1:-1])


def _cut(text: str, limit: int = 64) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _clean_move_word(word: str) -> str:
    """Strip move numbers glued to moves (``1.11-15``), suffixes (``!?``) and NAGs."""
    if "." in word:
        word = word.rsplit(".", 1)[1]
    return word.rstrip("!?+#*")


MakeGame = Callable[[Variant, Optional[str]], Any]


class _Lines:
    """The source's lines as text, keeping those of the open game for :attr:`PdnGame.text`.

    A line of bytes that does not decode raises :class:`InvalidPdnError` when ``strict``;
    otherwise it is decoded with replacement characters and ``(line, message)`` is queued in
    :attr:`bad` for the reader to record on the game (:func:`_with_bad_lines`).
    """

    def __init__(self, raw: Iterable[Any], source: str, encoding: str,
                 strict: bool = True) -> None:
        self.raw = raw
        self.source = source
        self.encoding = encoding
        self.strict = strict
        self.kept: List[Tuple[int, str]] = []
        self.keeping = False
        self.bad: List[Tuple[int, str]] = []

    def _decode(self, line: bytes, number: int) -> str:
        try:
            return line.decode(self.encoding)
        except UnicodeDecodeError as exc:
            message = f"not {self.encoding} text ({exc.reason})"
            if self.strict:
                raise InvalidPdnError(f"{self.source}:{number}: {message}") from None
            self.bad.append((number, message))
            return line.decode(self.encoding, "replace")
        except LookupError:
            raise InvalidPdnError(f"unknown text encoding {clip(self.encoding)}") from None

    def _numbered(self) -> Iterator[Tuple[int, Any]]:
        """The raw lines with their numbers; a text file that cannot decode its bytes is an
        :class:`InvalidPdnError` (its reader cannot go on after that)."""
        iterator = iter(self.raw)
        number = 0
        while True:
            number += 1
            try:
                line = next(iterator)
            except StopIteration:
                return
            except UnicodeDecodeError as exc:
                raise InvalidPdnError(f"{self.source}:{number}: not text in the file's "
                                      f"encoding ({exc.encoding}: {exc.reason})") from None
            yield number, line

    def __iter__(self) -> Iterator[str]:
        kept = self.kept
        for number, line in self._numbered():
            if isinstance(line, (bytes, bytearray)):
                line = self._decode(bytes(line), number)
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
            if not self.keeping:
                kept.clear()
            kept.append((number, line))
            yield line

    def start(self) -> None:
        """A game starts on the current line: forget the lines before it."""
        del self.kept[:-1]
        self.keeping = True

    def text(self, end_line: int) -> str:
        """The kept lines up to ``end_line``; stop keeping."""
        self.keeping = False
        return "".join(line for number, line in self.kept if number <= end_line)


def stream_records(pdn: PdnSource, make_game: Optional[MakeGame], variant: "Variant | str | None" = None,
                   source: Optional[str] = None, strict: bool = True,
                   encoding: str = "utf-8", variations: bool = False) -> Iterator[PdnGame]:
    """Yield a :class:`PdnGame` per game of ``pdn``, in order, holding one game at a time.

    The variant comes from each game's ``[GameType]`` tag, else ``variant``,
    else English; ``[FEN]`` sets the start position.  ``source`` names the
    input in errors (default: the path or file name, else ``<pdn>``).  With
    ``strict`` the first problem raises :class:`InvalidPdnError`; without, the
    game it is in is yielded with ``error`` set and reading goes on at the
    next game (bytes that do not decode are such a problem, read on as
    replacement characters; a text file that cannot decode its own lines
    raises).  With ``make_game`` None no
    game is built: moves are neither replayed nor checked, FEN tags not read.
    With ``variations`` each game's :attr:`PdnGame.tree` holds its moves with their
    variations and comments (a variation's moves are checked too when ``make_game`` is
    given); the main line is read as without it.
    """
    raw, handle, default_name = open_lines(pdn, encoding)
    name = source if source is not None else default_name
    default = get_variant(variant) if variant is not None else None
    try:
        lines = _Lines(raw, name, encoding, strict)
        items = _with_bad_lines(tokens(lines, name, notes=variations), lines)
        yield from _Reader(make_game, default, name, strict, lines, variations).run(items)
    except InvalidPdnError as exc:
        if isinstance(pdn, str) and "\n" not in pdn and pdn.strip().lower().endswith(".pdn"):
            raise InvalidPdnError(f"{exc} (a str is read as PDN text: pass a pathlib.Path "
                                  "to read a file)") from None
        raise
    finally:
        if handle is not None:
            handle.close()


def _with_bad_lines(items: Iterable[Token], lines: _Lines) -> Iterator[Token]:
    """``items`` with an ``error`` token for each line ``lines`` could not decode, placed
    before the first token of a later line, but after a tag (so that a bad line between games,
    or a bad tag line, belongs to the game that tag opens or continues, not to a record of its
    own)."""
    bad = lines.bad
    for item in items:
        if bad and bad[0][0] <= item.line:
            if item.kind == "tag":
                yield item
                while bad and bad[0][0] <= item.line:
                    number, message = bad.pop(0)
                    yield Token("error", message, number)
                continue
            while bad and bad[0][0] <= item.line:
                number, message = bad.pop(0)
                yield Token("error", message, number)
        yield item
    while bad:
        number, message = bad.pop(0)
        yield Token("error", message, number)


class _Reader:
    """The state of one pass over the tokens: the open game and its header."""

    def __init__(self, make_game: Optional[MakeGame], default: Optional[Variant], source: str,
                 strict: bool, lines: _Lines, variations: bool = False) -> None:
        self.variations = variations
        self.make_game = make_game
        self.default = default
        self.source = source
        self.strict = strict
        self.lines = lines
        self._reset()

    def _reset(self) -> None:
        self.tags: Dict[str, str] = {}
        self.tag_lines: Dict[str, int] = {}
        self.game: Any = None
        self.moves: List[str] = []
        self.in_movetext = False
        self.start_line = 0
        self.last_line = 0
        self.error: Optional[InvalidPdnError] = None
        # the game tree (variations=True): where the next move goes, the last move read at
        # this level, and per open variation what to go back to (with a game to check it on)
        self.root: Optional[MoveNode] = MoveNode() if self.variations else None
        self.cursor = self.root
        self.last: Optional[MoveNode] = None
        self.frames: List[Tuple[Any, Optional[MoveNode], Any]] = []
        self.side_game: Any = None
        self.start: Tuple[Optional[Variant], Optional[str]] = (None, None)

    def _problem(self, line: int, message: str) -> None:
        """Record a problem of the open game (raise it when strict)."""
        error = InvalidPdnError(f"{self.source}:{line}: {message}")
        if self.strict:
            raise error
        if self.error is None:
            self.error = error

    def _begin(self, line: int) -> None:
        if not self.start_line:
            self.start_line = line
            self.lines.start()
        self.last_line = line

    def _finish(self, result: Optional[str]) -> PdnGame:
        if not self.in_movetext and self.error is None:
            self._open_game(self.last_line)  # a game with tags only
        if result is not None:
            self.tags.setdefault("Result", result)
        record = PdnGame(self.game, self.tags, result, self.source, self.start_line,
                         self.last_line, self.lines.text(self.last_line), tuple(self.moves),
                         self.error, self.root)
        self._reset()
        return record

    def _open_game(self, line: int) -> None:
        """Movetext starts: build the game from the header."""
        self.in_movetext = True
        if self.error is not None:
            return
        variant = self.default
        game_type = self.tags.get("GameType")
        if game_type is not None:
            code = _small_int(game_type.split(",")[0].strip())
            variant = (variant_for_game_type(code, self.tags.get("Variant"))
                       if code is not None else None)
            if variant is None:
                self._problem(self.tag_lines["GameType"], f"unsupported GameType {clip(game_type)}")
                return
        if self.make_game is None:
            return
        fen = self.tags.get("FEN") or None
        self.start = (variant or ENGLISH, fen)
        try:
            game = self.make_game(variant or ENGLISH, fen)  # PDN without GameType: English
        except DraughtsError as exc:
            self._problem(self.tag_lines.get("FEN", line), str(exc))
            return
        game.tags = self.tags
        self.game = game

    def run(self, items: Iterable[Token]) -> Iterator[PdnGame]:
        for kind, text, line in items:
            if kind == "error":
                outside = not self.start_line
                self._begin(line)
                self._problem(line, text)
                if outside:
                    yield self._finish(None)  # between games: a record of its own
                continue
            if kind == "tag":
                if self.in_movetext:
                    yield self._finish(None)  # the previous game ended without a result token
                parsed = _parse_tag(text)
                if parsed is None:
                    self._begin(line)
                    self._problem(line, f"malformed tag [{_cut(text)}]")
                    continue
                tag, value = parsed
                if tag in self.tags:
                    yield self._finish(None)  # the previous game had tags only
                self._begin(line)
                self.tags[tag] = value
                self.tag_lines[tag] = line
                continue
            if kind == "comment":
                if self.start_line and self.root is not None:
                    (self.last or self.cursor).comments.append(text)
                continue
            self._begin(line)
            if not self.in_movetext:
                self._open_game(line)
            if kind in ("open", "close"):
                if self.error is None:
                    self._variation(kind == "open", line)
                continue
            if kind == "result" and self.frames:
                continue  # a variation's own ending ("... 1-0)"): the game goes on
            if kind == "result":
                yield self._finish(text)
                continue
            if self.error is not None or text.startswith("$"):
                continue
            move = _clean_move_word(text)
            if not move:
                continue  # a move number such as "12." or "12..."
            if move.isdigit():
                # Not a move number (no '.') and not a move in any notation read here (squares
                # are joined by '-', 'x' or ':'): dropping it would shorten the game silently.
                self._problem(line, f"{clip(text)} where a move is due: a move number ends "
                                    f"with '.' and a move joins its squares with '-' or 'x'")
                continue
            if self.frames:
                self._side_move(move, text, line)
                continue
            if self.root is not None:
                self.cursor = self.last = self.cursor.add(move)
            self.moves.append(move)
            if self.game is None:
                continue
            try:
                self.game.push(move)
            except DraughtsError as exc:
                self.moves.pop()
                self._problem(line, f"move {clip(text)}: {exc}")
        if self.start_line:
            yield self._finish(None)

    def _variation(self, opens: bool, line: int) -> None:
        """``(``: the moves that follow replace the last move read; ``)``: back to it."""
        if not opens:
            self.cursor, self.last, self.side_game = self.frames.pop()
            return
        if self.last is None or self.last.parent is None:
            self._problem(line, "a variation before any move it could replace")
            return
        self.frames.append((self.cursor, self.last, self.side_game))
        self.cursor, self.last = self.last.parent, None
        self.side_game = None
        if self.make_game is not None and self.start[0] is not None:
            path, node = [], self.cursor
            while node is not None and node.parent is not None:
                path.append(node.move)
                node = node.parent
            game = self.make_game(*self.start)
            for move in reversed(path):
                game.push(move)
            self.side_game = game

    def _side_move(self, move: str, text: str, line: int) -> None:
        """A move of a variation: into the tree, checked on the variation's own game."""
        if self.side_game is not None:
            try:
                self.side_game.push(move)
            except DraughtsError as exc:
                self._problem(line, f"move {clip(text)} (in a variation): {exc}")
                return
        self.cursor = self.last = self.cursor.add(move)
