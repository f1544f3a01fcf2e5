"""Protocol input: raw lines -> tokens -> one frozen dataclass per command.

The contract is PROTOCOL.md. This module checks the *shape* of a line only (words, numbers,
ranges, combinations); whether a FEN or a move is legal is for the server to decide against the
rules. Every failure is a :class:`CommandError` whose ``str()`` is the reason for the
``error <reason>`` line, e.g.::

    >>> parse_command("go depth 0")
    Traceback (most recent call last):
    ...
    protocol.commands.ArgumentError: go: depth must be in 1..99, got 0
    >>> parse_command("go wtime 1000 btime 900 winc 10 binc 10").to_line()
    'go wtime 1000 btime 900 winc 10 binc 10'
    >>> parse_command("position startpos moves 11-15 23-19").to_line()
    'position startpos moves 11-15 23-19'

No regular expressions: tokens are split on runs of spaces and tabs by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import BinaryIO, Callable, ClassVar, Dict, List, Mapping, Optional, Sequence, Tuple

from draughts_engine.search.limits import (LIMIT_RANGES, MAX_DEPTH, MAX_MOVESTOGO, MAX_NODES,
                                           MAX_TIME_MS, SearchLimits)

__all__ = [
    "PROTOCOL_VERSION",
    "DEFAULT_VARIANT",
    "MAX_LINE_BYTES",
    "MAX_DEPTH",
    "MAX_PERFT_DEPTH",
    "MAX_NODES",
    "MAX_TIME_MS",
    "MAX_MOVESTOGO",
    "MAX_UNDO",
    "CommandError",
    "LineError",
    "LineTooLongError",
    "InvalidUtf8Error",
    "UnknownCommandError",
    "ArgumentError",
    "Command",
    "Uci",
    "IsReady",
    "SetOption",
    "UciNewGame",
    "SetPosition",
    "PlayMoves",
    "Undo",
    "SearchLimits",
    "GO_NUMBERS",
    "go_tokens",
    "Go",
    "Stop",
    "PonderHit",
    "Quit",
    "Display",
    "Perft",
    "Eval",
    "Bench",
    "Help",
    "Hub",
    "COMMAND_HELP",
    "tokenize",
    "token_spans",
    "parse_command",
    "is_move_token",
    "is_fen_token",
    "moves_text",
    "printable",
    "show_reason",
    "show_token",
    "decode_line",
    "LineReader",
]

PROTOCOL_VERSION = 1
"""The number the server prints as ``id protocol``."""

DEFAULT_VARIANT = "english"
"""The rules an engine plays until ``setoption name Variant`` says otherwise (PROTOCOL.md)."""

MAX_LINE_BYTES = 1 << 20
"""Longest accepted line in bytes (1 MiB), not counting the LF or CRLF: room for a
``position ... moves`` line of a game of more than 100,000 plies (a GUI resends the whole game
before every move; an 8 KiB limit cut games of about 1,400 plies short)."""

MAX_PERFT_DEPTH = 20
MAX_UNDO = 1_000_000
MAX_MOVE_CHARS = 256

_SEPARATORS = " \t"
_DIGITS = frozenset("0123456789")
_MOVE_PUNCTUATION = frozenset("-:@=")
_ALNUM_ASCII = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_SHOWN_CHARS = 64
_SHOWN_REASON_CHARS = 400


# --------------------------------------------------------------------------- errors


class CommandError(ValueError):
    """A line that cannot be executed; ``str(error)`` is the text after ``error ``."""

    @property
    def reason(self) -> str:
        """The reason text for the ``error <reason>`` line."""
        return str(self)


class LineError(CommandError):
    """The line as bytes is unacceptable (too long, not UTF-8); it is discarded whole."""


class LineTooLongError(LineError):
    def __init__(self) -> None:
        super().__init__("line too long")


class InvalidUtf8Error(LineError):
    def __init__(self) -> None:
        super().__init__("invalid utf-8")


class UnknownCommandError(CommandError):
    """The first token names no command."""

    def __init__(self, word: str) -> None:
        super().__init__(f"unknown command: {show_token(word)}")
        self.word = word


class ArgumentError(CommandError):
    """A missing, extra, repeated, malformed or out-of-range argument of a known command.

    The reason reads ``<word>: <detail>``.
    """

    def __init__(self, word: str, detail: str) -> None:
        super().__init__(f"{word}: {detail}")
        self.word = word
        self.detail = detail


def printable(text: str) -> str:
    """``text`` with every character that is not printable (control characters, line and
    paragraph separators) escaped as Python writes it: ``\\x1b``, ``\\u2028``."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _shown(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (``...`` marks the cut), then :func:`printable`."""
    return printable(text) if len(text) <= limit else printable(text[:limit]) + "..."


def show_reason(reason: str) -> str:
    """Render a whole reason (the rules core's explanation, not a token of the input) for an
    error line: escaped, cut only past :data:`_SHOWN_REASON_CHARS` (the reason's words are
    its point; the tokens it quotes are already cut)."""
    return _shown(reason, _SHOWN_REASON_CHARS)


def moves_text(played: Sequence[str], shown: int = 8) -> str:
    """The moves played before a bad one, for an error line: all of them when there are at
    most ``shown``, else their number and the last ``shown`` (a line of a 100,000-ply game
    must not come back whole in its error)."""
    if len(played) <= shown:
        return " ".join(played)
    return f"{len(played)} moves, the last {shown}: {' '.join(played[-shown:])}"


def show_token(token: str) -> str:
    """Render a token for an error reason: non-printable characters escaped, cut to 64 chars."""
    return _shown(token, _SHOWN_CHARS)


# --------------------------------------------------------------------------- tokens


def token_spans(line: str) -> List[Tuple[str, int, int]]:
    """Tokens of ``line`` with their [start, end) offsets; separators are spaces and tabs.

    The offsets let a caller take the rest of a line verbatim (``info string``, option values).
    """
    spans: List[Tuple[str, int, int]] = []
    i, n = 0, len(line)
    while i < n:
        while i < n and line[i] in _SEPARATORS:
            i += 1
        start = i
        while i < n and line[i] not in _SEPARATORS:
            i += 1
        if i > start:
            spans.append((line[start:i], start, i))
    return spans


def tokenize(line: str) -> List[str]:
    """Split a line on runs of spaces and tabs (only those; unlike ``str.split()``).

    >>> tokenize(" go\\tdepth  5 ")
    ['go', 'depth', '5']
    """
    return [token for token, _, _ in token_spans(line)]


def is_move_token(token: str) -> bool:
    """True when ``token`` has the shape of a move (not necessarily a legal one).

    1..256 characters of ASCII letters, digits and ``- : @ =``, starting and ending with a letter
    or digit: ``11-15``, ``15x24x31``, ``c3-d4``, and whatever the small games use.
    """
    if not token or len(token) > MAX_MOVE_CHARS:
        return False
    if token[0] not in _ALNUM_ASCII or token[-1] not in _ALNUM_ASCII:
        return False
    return all(c in _ALNUM_ASCII or c in _MOVE_PUNCTUATION for c in token)


def is_fen_token(token: str) -> bool:
    """True when ``token`` could be a FEN: one non-empty token of printable ASCII."""
    return bool(token) and all("!" <= c <= "~" for c in token)


def _is_one_line(text: str) -> bool:
    return "\n" not in text and "\r" not in text


def _check_moves(word: str, moves: Tuple[str, ...]) -> None:
    for move in moves:
        if not isinstance(move, str) or not is_move_token(move):
            raise ArgumentError(word, f"malformed move '{show_token(str(move))}'")


def _check_int(word: str, name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(word, f"{name} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise ArgumentError(word, f"{name} must be in {low}..{high}, got {value}")


def _parse_int(word: str, name: str, token: Optional[str], low: int, high: int) -> int:
    """Read a decimal integer token (an optional ``-`` only to report it as out of range)."""
    if token is None:
        raise ArgumentError(word, f"missing value for {name}")
    digits = token[1:] if token.startswith("-") else token
    if not digits or not all(c in _DIGITS for c in digits):
        raise ArgumentError(word, f"{name} needs a number, got '{show_token(token)}'")
    if len(digits) > len(str(max(abs(low), abs(high)))) + 1:  # no giant int() conversions
        raise ArgumentError(word, f"{name} must be in {low}..{high}, got {show_token(token)}")
    value = int(token)
    _check_int(word, name, value, low, high)
    return value


# --------------------------------------------------------------------------- commands


@dataclass(frozen=True)
class Command:
    """Base of all commands. ``to_line()`` gives back protocol text that parses to an equal value.

    ``allowed_during_search`` says whether the server executes the command while a search runs
    (otherwise it answers ``error busy: <word> during search``).
    """

    word: ClassVar[str] = ""
    allowed_during_search: ClassVar[bool] = False

    def to_line(self) -> str:
        """The command as one protocol line (without the LF)."""
        return self.word


@dataclass(frozen=True)
class Uci(Command):
    word: ClassVar[str] = "uci"
    allowed_during_search: ClassVar[bool] = True


@dataclass(frozen=True)
class IsReady(Command):
    word: ClassVar[str] = "isready"
    allowed_during_search: ClassVar[bool] = True


@dataclass(frozen=True)
class SetOption(Command):
    """``setoption name <name> [value <value>]``; ``value`` is None for a button."""

    name: str
    value: Optional[str] = None
    word: ClassVar[str] = "setoption"

    def __post_init__(self) -> None:
        tokens = tokenize(self.name)
        if not tokens or " ".join(tokens) != self.name or "value" in tokens or "name" in tokens:
            raise ArgumentError(self.word, f"bad option name '{show_token(self.name)}'")
        if self.value is not None:
            if not tokenize(self.value):
                raise ArgumentError(self.word, f"missing value for {show_token(self.name)}")
            if self.value != self.value.strip(_SEPARATORS) or not _is_one_line(self.value):
                raise ArgumentError(self.word, f"bad value '{show_token(self.value)}'")

    def to_line(self) -> str:
        if self.value is None:
            return f"setoption name {self.name}"
        return f"setoption name {self.name} value {self.value}"


@dataclass(frozen=True)
class UciNewGame(Command):
    word: ClassVar[str] = "ucinewgame"


@dataclass(frozen=True)
class SetPosition(Command):
    """``position startpos|fen <FEN> [moves ...]``; ``fen`` None means the start position."""

    fen: Optional[str] = None
    moves: Tuple[str, ...] = ()
    word: ClassVar[str] = "position"

    def __post_init__(self) -> None:
        if self.fen is not None and (not all(is_fen_token(part) for part in self.fen.split(" "))
                                     or "moves" in self.fen.split(" ")):
            raise ArgumentError(self.word, f"bad fen '{show_token(self.fen)}'")
        object.__setattr__(self, "moves", tuple(self.moves))
        _check_moves(self.word, self.moves)

    def to_line(self) -> str:
        parts = ["position", "startpos" if self.fen is None else f"fen {self.fen}"]
        if self.moves:
            parts.append("moves " + " ".join(self.moves))
        return " ".join(parts)


@dataclass(frozen=True)
class PlayMoves(Command):
    """``move m1 [m2 ...]``: play moves on the current position (all or nothing)."""

    moves: Tuple[str, ...]
    word: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", tuple(self.moves))
        if not self.moves:
            raise ArgumentError(self.word, "missing move")
        _check_moves(self.word, self.moves)

    def to_line(self) -> str:
        return "move " + " ".join(self.moves)


@dataclass(frozen=True)
class Undo(Command):
    """``undo [N]``: take back N plies (default 1). ``bare``: the line named no count (a
    bare ``undo`` with nothing to take back is a notice, not an error: PROTOCOL.md)."""

    count: int = 1
    bare: bool = field(default=False, compare=False)
    word: ClassVar[str] = "undo"

    def __post_init__(self) -> None:
        _check_int(self.word, "count", self.count, 1, MAX_UNDO)

    def to_line(self) -> str:
        return "undo" if self.count == 1 else f"undo {self.count}"


#: The arguments of ``go`` that take a number, with the :class:`SearchLimits` field each fills.
GO_NUMBERS: Mapping[str, str] = MappingProxyType(
    {
        "depth": "depth",
        "nodes": "nodes",
        "movetime": "movetime_ms",
        "wtime": "wtime_ms",
        "btime": "btime_ms",
        "winc": "winc_ms",
        "binc": "binc_ms",
        "movestogo": "movestogo",
        "mate": "mate",
    }
)
_FLAG_LIMITS = ("infinite", "ponder")
SEARCHMOVES = "searchmoves"
"""The ``go`` argument followed by the root moves to search (until the next argument)."""


def go_tokens(limits: SearchLimits) -> List[str]:
    """The arguments of ``go`` for ``limits``, in a fixed order (flags first, ``searchmoves``
    and its moves last).

    >>> go_tokens(SearchLimits(depth=6, movetime_ms=500))
    ['depth', '6', 'movetime', '500']
    """
    tokens: List[str] = [name for name in _FLAG_LIMITS if getattr(limits, name)]
    for word, name in GO_NUMBERS.items():
        value = getattr(limits, name)
        if value is not None:
            tokens += [word, str(value)]
    if limits.searchmoves:  # move texts (a client's limits; the engine's are its moves)
        tokens += [SEARCHMOVES, *(str(move) for move in limits.searchmoves)]
    return tokens


@dataclass(frozen=True)
class Go(Command):
    """``go``: search with these limits (PROTOCOL.md; times in milliseconds), at the root
    only ``searchmoves`` (move texts, checked against the position when the search starts)
    when there are any."""

    limits: SearchLimits = SearchLimits()
    searchmoves: Tuple[str, ...] = ()
    word: ClassVar[str] = "go"

    def to_line(self) -> str:
        tail = [SEARCHMOVES, *self.searchmoves] if self.searchmoves else []
        return " ".join(["go"] + go_tokens(self.limits) + tail)


@dataclass(frozen=True)
class Stop(Command):
    word: ClassVar[str] = "stop"
    allowed_during_search: ClassVar[bool] = True


@dataclass(frozen=True)
class PonderHit(Command):
    word: ClassVar[str] = "ponderhit"
    allowed_during_search: ClassVar[bool] = True


@dataclass(frozen=True)
class Quit(Command):
    word: ClassVar[str] = "quit"
    allowed_during_search: ClassVar[bool] = True


@dataclass(frozen=True)
class Display(Command):
    """``d``: the debug view of the current (during a search: the root) position."""

    word: ClassVar[str] = "d"
    allowed_during_search: ClassVar[bool] = True


@dataclass(frozen=True)
class Perft(Command):
    depth: int
    word: ClassVar[str] = "perft"

    def __post_init__(self) -> None:
        _check_int(self.word, "depth", self.depth, 1, MAX_PERFT_DEPTH)

    def to_line(self) -> str:
        return f"perft {self.depth}"


@dataclass(frozen=True)
class Eval(Command):
    word: ClassVar[str] = "eval"


@dataclass(frozen=True)
class Bench(Command):
    """``bench [depth]``; ``depth`` None means the server's default."""

    depth: Optional[int] = None
    word: ClassVar[str] = "bench"

    def __post_init__(self) -> None:
        if self.depth is not None:
            _check_int(self.word, "depth", self.depth, 1, MAX_DEPTH)

    def to_line(self) -> str:
        return "bench" if self.depth is None else f"bench {self.depth}"


@dataclass(frozen=True)
class Help(Command):
    """``help``: one ``info string`` line per command (:data:`COMMAND_HELP`)."""

    word: ClassVar[str] = "help"
    allowed_during_search: ClassVar[bool] = True


@dataclass(frozen=True)
class Hub(Command):
    """``hub``: switch to Hub v2 (valid only as the first command; the server checks that)."""

    word: ClassVar[str] = "hub"


# --------------------------------------------------------------------------- parsing

_Spans = List[Tuple[str, int, int]]


def _no_more(word: str, spans: _Spans, index: int) -> None:
    if index < len(spans):
        raise ArgumentError(word, f"unexpected argument '{show_token(spans[index][0])}'")


def _parse_moves(word: str, spans: _Spans, index: int) -> Tuple[str, ...]:
    return tuple(token for token, _, _ in spans[index:])


def _no_args(cls: Callable[[], Command]) -> Callable[[str, _Spans], Command]:
    def parse(line: str, spans: _Spans) -> Command:
        command = cls()
        _no_more(command.word, spans, 1)
        return command

    return parse


def _parse_setoption(line: str, spans: _Spans) -> Command:
    word = "setoption"
    if len(spans) < 2 or spans[1][0] != "name":
        raise ArgumentError(word, "expected 'name'")
    value_at = next((i for i in range(2, len(spans)) if spans[i][0] == "value"), len(spans))
    if value_at == 2:
        raise ArgumentError(word, "missing option name")
    name = " ".join(token for token, _, _ in spans[2:value_at])
    if value_at == len(spans):
        return SetOption(name, None)
    if value_at == len(spans) - 1:
        raise ArgumentError(word, f"missing value for {show_token(name)}")
    return SetOption(name, line[spans[value_at + 1][1] : spans[-1][2]])


def _parse_position(line: str, spans: _Spans) -> Command:
    word = "position"
    if len(spans) < 2 or spans[1][0] not in ("startpos", "fen"):
        raise ArgumentError(word, "expected startpos or fen")
    fen: Optional[str] = None
    index = 2
    if spans[1][0] == "fen":
        if len(spans) < 3 or spans[2][0] == "moves":
            raise ArgumentError(word, "missing fen")
        # The FEN runs to "moves" or the end: one token for draughts, several for
        # the small games (e.g. "3/1x1/o2 x").
        index = 2
        while index < len(spans) and spans[index][0] != "moves":
            index += 1
        fen = " ".join(span[0] for span in spans[2:index])
    if index < len(spans):
        if spans[index][0] != "moves":
            raise ArgumentError(word, f"unexpected argument '{show_token(spans[index][0])}'")
        return SetPosition(fen, _parse_moves(word, spans, index + 1))
    return SetPosition(fen, ())


def _parse_move(line: str, spans: _Spans) -> Command:
    return PlayMoves(_parse_moves("move", spans, 1))


def _optional_number(word: str, name: str, spans: _Spans, high: int) -> Optional[int]:
    """The one optional argument of ``word``, a number in 1..``high``; None without it."""
    if len(spans) == 1:
        return None
    _no_more(word, spans, 2)
    return _parse_int(word, name, spans[1][0], 1, high)


def _parse_undo(line: str, spans: _Spans) -> Command:
    count = _optional_number("undo", "count", spans, MAX_UNDO)
    return Undo(bare=True) if count is None else Undo(count)


def _parse_go(line: str, spans: _Spans) -> Command:
    values: Dict[str, object] = {}
    index = 1
    while index < len(spans):
        token = spans[index][0]
        if token in values:
            raise ArgumentError("go", f"{token} given twice")
        if token in _FLAG_LIMITS:
            values[token] = True
            index += 1
        elif token == SEARCHMOVES:
            index += 1
            moves = []
            while index < len(spans) and spans[index][0] not in GO_NUMBERS \
                    and spans[index][0] not in _FLAG_LIMITS and spans[index][0] != SEARCHMOVES:
                moves.append(spans[index][0])
                index += 1
            if not moves:
                raise ArgumentError("go", "searchmoves needs at least one move")
            values[token] = tuple(moves)
        elif token in GO_NUMBERS:
            low, high = LIMIT_RANGES[GO_NUMBERS[token]]
            value_token = spans[index + 1][0] if index + 1 < len(spans) else None
            values[token] = _parse_int("go", token, value_token, low, high)
            index += 2
        else:
            raise ArgumentError("go", f"unexpected argument '{show_token(token)}'")
    clock = [word for word in ("wtime", "btime", "winc", "binc", "movestogo") if word in values]
    if clock and not ("wtime" in values and "btime" in values):
        raise ArgumentError("go", "the clock needs both wtime and btime")
    if "infinite" in values:
        if "ponder" in values:
            raise ArgumentError("go", "infinite cannot be combined with ponder")
        other = next((word for word in GO_NUMBERS if word in values), None)
        if other is not None:
            raise ArgumentError("go", f"infinite cannot be combined with {other}")
    searchmoves = values.pop(SEARCHMOVES, ())
    return Go(SearchLimits(**{GO_NUMBERS.get(word, word): value  # type: ignore[arg-type]
                              for word, value in values.items()}),
              searchmoves)  # type: ignore[arg-type]


def _parse_perft(line: str, spans: _Spans) -> Command:
    depth = _optional_number("perft", "depth", spans, MAX_PERFT_DEPTH)
    if depth is None:
        raise ArgumentError("perft", "missing depth")
    return Perft(depth)


def _parse_bench(line: str, spans: _Spans) -> Command:
    return Bench(_optional_number("bench", "depth", spans, MAX_DEPTH))


_PARSERS: Mapping[str, Callable[[str, _Spans], Command]] = MappingProxyType(
    {
        "uci": _no_args(Uci),
        "isready": _no_args(IsReady),
        "setoption": _parse_setoption,
        "ucinewgame": _no_args(UciNewGame),
        "position": _parse_position,
        "move": _parse_move,
        "undo": _parse_undo,
        "go": _parse_go,
        "stop": _no_args(Stop),
        "ponderhit": _no_args(PonderHit),
        "quit": _no_args(Quit),
        "d": _no_args(Display),
        "perft": _parse_perft,
        "eval": _no_args(Eval),
        "bench": _parse_bench,
        "hub": _no_args(Hub),
        "help": _no_args(Help),
    }
)

COMMAND_HELP: Mapping[str, str] = MappingProxyType(
    {
        "uci": "uci - the engine's name, options and uciok",
        "isready": "isready - readyok once every earlier command is handled",
        "setoption": "setoption name <Name> [value <v>] - set an option (uci lists them)",
        "ucinewgame": "ucinewgame - a new game: start position, empty hash",
        "position": "position startpos|fen <FEN> [moves <m>...] - set the game",
        "move": "move <m>... - play moves on from the current position",
        "undo": "undo [N] - take back N plies (default 1)",
        "go": "go [depth N] [nodes N] [movetime ms] [mate N] [wtime ms btime ms [winc ms binc ms] "
              "[movestogo N]] [ponder] [infinite] [searchmoves m1 m2 ...] - search; ends with "
              "bestmove",
        "stop": "stop - end the search now; its bestmove follows",
        "ponderhit": "ponderhit - the pondered move was played: search on normally",
        "quit": "quit - stop any search (its bestmove first) and exit",
        "d": "d - show the position: board, fen, side, legal moves, state",
        "perft": "perft N - count the move paths of N plies",
        "eval": "eval - the static evaluation, term by term",
        "bench": "bench [depth] - search a fixed set of positions; nodes and speed",
        "hub": "hub - switch to Hub v2 (first command only)",
        "help": "help - this list (PROTOCOL.md has the whole contract)",
    }
)
"""One line per command for ``help``, in the order of PROTOCOL.md's section 4."""


def parse_command(line: str) -> Optional[Command]:
    """Parse one decoded line (without its line end) into a command.

    Returns None for a line without tokens (the server ignores it silently). Raises
    :class:`UnknownCommandError` or :class:`ArgumentError`; their ``str()`` is the reason of
    the ``error`` line.
    """
    spans = token_spans(line)
    if not spans:
        return None
    parser = _PARSERS.get(spans[0][0])
    if parser is None:
        raise UnknownCommandError(spans[0][0])
    return parser(line, spans)


# --------------------------------------------------------------------------- bytes -> lines


def decode_line(raw: bytes, max_bytes: int = MAX_LINE_BYTES) -> str:
    """Turn one raw line into text: drop a final LF, then a final CR, check length, decode.

    Raises :class:`LineTooLongError` when more than ``max_bytes`` bytes remain and
    :class:`InvalidUtf8Error` when they are not strict UTF-8.
    """
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if len(raw) > max_bytes:
        raise LineTooLongError()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidUtf8Error() from None


class LineReader:
    """Reads protocol lines from a binary stream with bounded memory.

    ``read_line()`` returns the next decoded line, None at end of input, or raises a
    :class:`LineError` after consuming the offending line whole (so the next call starts on
    the following line). A line longer than the limit is never held in memory in full.
    """

    _DISCARD_CHUNK = 65536

    def __init__(self, stream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> None:
        self._stream = stream
        self._max_bytes = max_bytes

    def read_line(self) -> Optional[str]:
        limit = self._max_bytes + 2  # room for CR LF
        raw = self._stream.readline(limit)
        if not raw:
            return None
        if len(raw) >= limit and not raw.endswith(b"\n"):
            while True:
                chunk = self._stream.readline(self._DISCARD_CHUNK)
                if not chunk or chunk.endswith(b"\n"):
                    break
            raise LineTooLongError()
        return decode_line(raw, self._max_bytes)

    def __iter__(self) -> "LineReader":
        return self

    def __next__(self) -> str:
        """Iterate lines until end of input; a bad line raises (iteration may then go on)."""
        line = self.read_line()
        if line is None:
            raise StopIteration
        return line
