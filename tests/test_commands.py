"""protocol.commands: every command's grammar, every bad-input kind, and the byte-level lines."""

from __future__ import annotations

import doctest
import io
from typing import List

import pytest

import protocol.commands
from draughts_engine.search.limits import InvalidLimitsError, SearchLimits
from protocol.commands import (
    MAX_LINE_BYTES,
    ArgumentError,
    Bench,
    CommandError,
    Display,
    Eval,
    Go,
    go_tokens,
    Hub,
    InvalidUtf8Error,
    IsReady,
    LineReader,
    LineTooLongError,
    PlayMoves,
    Perft,
    PonderHit,
    SetPosition,
    Quit,
    SetOption,
    Stop,
    Uci,
    UciNewGame,
    Undo,
    UnknownCommandError,
    decode_line,
    is_move_token,
    parse_command,
    tokenize,
)

VALID = [
    ("uci", Uci()),
    ("isready", IsReady()),
    ("  \tisready \t ", IsReady()),
    ("setoption name Hash value 64", SetOption("Hash", "64")),
    ("setoption name hash value 64", SetOption("hash", "64")),
    ("setoption name Clear Hash", SetOption("Clear Hash", None)),
    ("setoption name  Move\tOverhead  value 10", SetOption("Move Overhead", "10")),
    ("setoption name Book value my  book.pdn", SetOption("Book", "my  book.pdn")),
    ("ucinewgame", UciNewGame()),
    ("position startpos", SetPosition()),
    ("position startpos moves", SetPosition()),
    ("position startpos moves 11-15 23-19", SetPosition(None, ("11-15", "23-19"))),
    ("position fen B:W21-32:B1-12", SetPosition("B:W21-32:B1-12")),
    (
        "position fen W:WK47:B14,19,29,31,42 moves 47x38x24x13x36",
        SetPosition("W:WK47:B14,19,29,31,42", ("47x38x24x13x36",)),
    ),
    ("position startpos moves c3-d4 f6-e5", SetPosition(None, ("c3-d4", "f6-e5"))),
    ("move 11-15", PlayMoves(("11-15",))),
    ("move 15x24 28x19", PlayMoves(("15x24", "28x19"))),
    ("undo", Undo()),
    ("undo 3", Undo(3)),
    ("go", Go()),
    ("go depth 5", Go(SearchLimits(depth=5))),
    ("go nodes 1000", Go(SearchLimits(nodes=1000))),
    ("go movetime 250", Go(SearchLimits(movetime_ms=250))),
    ("go wtime 0 btime 900", Go(SearchLimits(wtime_ms=0, btime_ms=900))),
    (
        "go btime 900 wtime 1000 binc 5 winc 10 movestogo 40",
        Go(SearchLimits(wtime_ms=1000, btime_ms=900, winc_ms=10, binc_ms=5, movestogo=40)),
    ),
    ("go depth 8 movetime 1000 nodes 5", Go(SearchLimits(depth=8, nodes=5, movetime_ms=1000))),
    ("go infinite", Go(SearchLimits(infinite=True))),
    ("go ponder wtime 10 btime 20", Go(SearchLimits(wtime_ms=10, btime_ms=20, ponder=True))),
    ("go ponder", Go(SearchLimits(ponder=True))),
    ("go depth 007", Go(SearchLimits(depth=7))),
    ("go depth 99", Go(SearchLimits(depth=99))),
    ("go nodes 9223372036854775807", Go(SearchLimits(nodes=2**63 - 1))),
    ("stop", Stop()),
    ("ponderhit", PonderHit()),
    ("quit", Quit()),
    ("d", Display()),
    ("perft 1", Perft(1)),
    ("perft 20", Perft(20)),
    ("eval", Eval()),
    ("bench", Bench()),
    ("bench 4", Bench(4)),
    ("hub", Hub()),
]


@pytest.mark.parametrize("line, expected", VALID)
def test_valid_lines_parse_to_their_command(line, expected):
    assert parse_command(line) == expected


@pytest.mark.parametrize("line, expected", VALID)
def test_to_line_round_trips(line, expected):
    assert parse_command(expected.to_line()) == expected


def test_to_line_is_canonical():
    assert parse_command("go  btime 2 \t wtime 1").to_line() == "go wtime 1 btime 2"
    assert Go(SearchLimits(infinite=True)).to_line() == "go infinite"
    assert SetPosition("W:W1:B2", ("1-5",)).to_line() == "position fen W:W1:B2 moves 1-5"
    assert Undo().to_line() == "undo"


@pytest.mark.parametrize("line", ["", " ", "\t \t", "   "])
def test_lines_without_tokens_are_nothing(line):
    assert parse_command(line) is None


BAD = [
    # unknown commands (case-sensitive; only spaces and tabs separate tokens)
    ("foo 1 2", UnknownCommandError, "unknown command: foo"),
    ("GO depth 1", UnknownCommandError, "unknown command: GO"),
    ("Isready", UnknownCommandError, "unknown command: Isready"),
    ("go\u00a0depth 3", UnknownCommandError, "unknown command: go\\xa0depth"),
    ("\x1b[31m", UnknownCommandError, "unknown command: \\x1b[31m"),
    ("x" * 100, UnknownCommandError, "unknown command: " + "x" * 64 + "..."),
    # go: missing, non-numeric, negative, absurd, repeated, bad combinations, extra
    ("go depth", ArgumentError, "go: missing value for depth"),
    ("go depth x", ArgumentError, "go: depth needs a number, got 'x'"),
    ("go depth 3.5", ArgumentError, "go: depth needs a number, got '3.5'"),
    ("go depth +3", ArgumentError, "go: depth needs a number, got '+3'"),
    ("go depth \uff15", ArgumentError, "go: depth needs a number, got '\uff15'"),
    ("go depth \u00b2", ArgumentError, "go: depth needs a number, got '\u00b2'"),
    ("go depth -", ArgumentError, "go: depth needs a number, got '-'"),
    ("go depth -1", ArgumentError, "go: depth must be in 1..99, got -1"),
    ("go depth 0", ArgumentError, "go: depth must be in 1..99, got 0"),
    ("go depth 100", ArgumentError, "go: depth must be in 1..99, got 100"),
    ("go nodes 0", ArgumentError, "go: nodes must be in 1..9223372036854775807, got 0"),
    (
        "go nodes 99999999999999999999999",
        ArgumentError,
        "go: nodes must be in 1..9223372036854775807, got 99999999999999999999999",
    ),
    ("go depth " + "9" * 5000, ArgumentError, "go: depth must be in 1..99, got " + "9" * 64 + "..."),
    ("go movetime 0", ArgumentError, "go: movetime must be in 1..2147483647, got 0"),
    ("go wtime -5 btime 10", ArgumentError, "go: wtime must be in 0..2147483647, got -5"),
    ("go wtime 5 btime 2147483648", ArgumentError, "go: btime must be in 0..2147483647, got 2147483648"),
    ("go wtime 5 btime 5 movestogo 0", ArgumentError, "go: movestogo must be in 1..1000, got 0"),
    ("go depth 3 depth 4", ArgumentError, "go: depth given twice"),
    ("go infinite infinite", ArgumentError, "go: infinite given twice"),
    ("go infinite depth 3", ArgumentError, "go: infinite cannot be combined with depth"),
    ("go wtime 1 btime 1 infinite", ArgumentError, "go: infinite cannot be combined with wtime"),
    ("go infinite ponder", ArgumentError, "go: infinite cannot be combined with ponder"),
    ("go wtime 1000", ArgumentError, "go: the clock needs both wtime and btime"),
    ("go movestogo 5", ArgumentError, "go: the clock needs both wtime and btime"),
    ("go winc 5 binc 5", ArgumentError, "go: the clock needs both wtime and btime"),
    ("go depth 3 foo", ArgumentError, "go: unexpected argument 'foo'"),
    ("go 5", ArgumentError, "go: unexpected argument '5'"),
    # position: missing parts, bad FEN shape, malformed moves, extra tokens
    ("position", ArgumentError, "position: expected startpos or fen"),
    ("position foo", ArgumentError, "position: expected startpos or fen"),
    ("position fen", ArgumentError, "position: missing fen"),
    ("position fen moves 11-15", ArgumentError, "position: missing fen"),
    ("position fen \u00e9:W1", ArgumentError, "position: bad fen '\u00e9:W1'"),
    ("position startpos 11-15", ArgumentError, "position: unexpected argument '11-15'"),
    ("position fen moves 11-15", ArgumentError, "position: missing fen"),
    ("position startpos moves 11-15 bad!", ArgumentError, "position: malformed move 'bad!'"),
    ("position startpos moves (none)", ArgumentError, "position: malformed move '(none)'"),
    ("position startpos moves 11-", ArgumentError, "position: malformed move '11-'"),
    # move, undo
    ("move", ArgumentError, "move: missing move"),
    ("move -11", ArgumentError, "move: malformed move '-11'"),
    ("move 11-15 x\x00", ArgumentError, "move: malformed move 'x\\x00'"),
    ("undo 0", ArgumentError, "undo: count must be in 1..1000000, got 0"),
    ("undo -2", ArgumentError, "undo: count must be in 1..1000000, got -2"),
    ("undo x", ArgumentError, "undo: count needs a number, got 'x'"),
    ("undo 1 2", ArgumentError, "undo: unexpected argument '2'"),
    # setoption
    ("setoption", ArgumentError, "setoption: expected 'name'"),
    ("setoption Hash value 3", ArgumentError, "setoption: expected 'name'"),
    ("setoption name", ArgumentError, "setoption: missing option name"),
    ("setoption name value 5", ArgumentError, "setoption: missing option name"),
    ("setoption name Hash value", ArgumentError, "setoption: missing value for Hash"),
    # debug commands
    ("perft", ArgumentError, "perft: missing depth"),
    ("perft two", ArgumentError, "perft: depth needs a number, got 'two'"),
    ("perft 0", ArgumentError, "perft: depth must be in 1..20, got 0"),
    ("perft 21", ArgumentError, "perft: depth must be in 1..20, got 21"),
    ("perft 3 4", ArgumentError, "perft: unexpected argument '4'"),
    ("bench 0", ArgumentError, "bench: depth must be in 1..99, got 0"),
    ("bench x", ArgumentError, "bench: depth needs a number, got 'x'"),
    ("bench 1 2", ArgumentError, "bench: unexpected argument '2'"),
    # commands without arguments refuse extra tokens
    ("quit now", ArgumentError, "quit: unexpected argument 'now'"),
    ("isready 1", ArgumentError, "isready: unexpected argument '1'"),
    ("uci x", ArgumentError, "uci: unexpected argument 'x'"),
    ("stop now", ArgumentError, "stop: unexpected argument 'now'"),
    ("d board", ArgumentError, "d: unexpected argument 'board'"),
    ("eval 1", ArgumentError, "eval: unexpected argument '1'"),
    ("ucinewgame 1", ArgumentError, "ucinewgame: unexpected argument '1'"),
    ("ponderhit 1", ArgumentError, "ponderhit: unexpected argument '1'"),
    ("hub 2", ArgumentError, "hub: unexpected argument '2'"),
]


@pytest.mark.parametrize("line, error, reason", BAD)
def test_bad_lines_raise_with_the_error_reason(line, error, reason):
    with pytest.raises(error) as caught:
        parse_command(line)
    assert isinstance(caught.value, CommandError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.reason == reason == str(caught.value)
    assert "\n" not in reason and "\r" not in reason


def test_tokens_are_separated_by_spaces_and_tabs_only():
    assert tokenize(" a\tb  c \t") == ["a", "b", "c"]
    assert tokenize("a\u00a0b\x0bc\x1cd") == ["a\u00a0b\x0bc\x1cd"]
    assert tokenize("") == []


@pytest.mark.parametrize(
    "token, ok",
    [
        ("11-15", True),
        ("15x24x31", True),
        ("c3-d4", True),
        ("b2", True),
        ("N@b2", True),
        ("5", True),
        ("", False),
        ("-11", False),
        ("11-", False),
        ("11_15", False),
        ("\u0661\u0661-15", False),
        ("1" * 256, True),
        ("1" * 257, False),
    ],
)
def test_move_token_shape(token, ok):
    assert is_move_token(token) is ok


def test_only_the_read_only_and_search_control_commands_are_allowed_during_search():
    commands = [command for _, command in VALID]
    allowed = {type(c).word for c in commands if c.allowed_during_search}
    assert allowed == {"uci", "isready", "stop", "ponderhit", "quit", "d"}


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        ({"depth": True}, "depth must be a whole number, got True"),
        ({"depth": 2.0}, "depth must be a whole number, got 2.0"),
        ({"depth": 100}, "depth must be in 1..99, got 100"),
        ({"infinite": 1}, "infinite must be True or False"),
        ({"wtime_ms": 5}, "a clock needs both wtime_ms and btime_ms"),
        ({"infinite": True, "depth": 3}, "infinite cannot be combined with depth"),
    ],
)
def test_go_limits_validate_on_construction(kwargs, reason):
    with pytest.raises(InvalidLimitsError, match="^" + reason.replace(".", r"\.") + "$"):
        SearchLimits(**kwargs)


def test_go_limits_properties():
    assert not SearchLimits().is_bounded and not SearchLimits().has_clock
    assert SearchLimits(depth=3).is_bounded
    assert SearchLimits(wtime_ms=1, btime_ms=2).has_clock and SearchLimits(wtime_ms=1, btime_ms=2).is_bounded
    assert not SearchLimits(infinite=True).is_bounded
    assert go_tokens(SearchLimits(ponder=True, movetime_ms=5)) == ["ponder", "movetime", "5"]


@pytest.mark.parametrize(
    "build, reason",
    [
        (lambda: SetPosition("a\tb"), "position: bad fen 'a\\tb'"),
        (lambda: SetPosition("moves"), "position: bad fen 'moves'"),
        (lambda: SetPosition(None, ("11-15 19-23",)), "position: malformed move '11-15 19-23'"),
        (lambda: PlayMoves(()), "move: missing move"),
        (lambda: Undo(0), "undo: count must be in 1..1000000, got 0"),
        (lambda: Perft(0), "perft: depth must be in 1..20, got 0"),
        (lambda: Bench(100), "bench: depth must be in 1..99, got 100"),
        (lambda: SetOption("", "1"), "setoption: bad option name ''"),
        (lambda: SetOption("a  b", "1"), "setoption: bad option name 'a  b'"),
        (lambda: SetOption("value", "1"), "setoption: bad option name 'value'"),
        (lambda: SetOption("Hash", " 1"), "setoption: bad value ' 1'"),
        (lambda: SetOption("Hash", "1\n2"), "setoption: bad value '1\\n2'"),
        (lambda: SetOption("Hash", " "), "setoption: missing value for Hash"),
    ],
)
def test_commands_built_in_code_are_validated_too(build, reason):
    with pytest.raises(ArgumentError) as caught:
        build()
    assert str(caught.value) == reason


def test_commands_are_frozen_and_hashable():
    command = SetPosition(None, ["11-15"])  # a list is frozen into a tuple
    assert command.moves == ("11-15",)
    with pytest.raises(AttributeError):
        command.fen = "x"  # type: ignore[misc]
    assert len({Go(SearchLimits(depth=3)), Go(SearchLimits(depth=3))}) == 1


# --------------------------------------------------------------------------- bytes -> lines


@pytest.mark.parametrize(
    "raw, text",
    [
        (b"isready\n", "isready"),
        (b"isready\r\n", "isready"),
        (b"isready", "isready"),
        (b"\n", ""),
        (b"\r\n", ""),
        (b"a\rb\n", "a\rb"),
        ("setoption name Book value caf\u00e9\n".encode(), "setoption name Book value caf\u00e9"),
        (b"x" * MAX_LINE_BYTES + b"\r\n", "x" * MAX_LINE_BYTES),
    ],
)
def test_decode_line(raw, text):
    assert decode_line(raw) == text


@pytest.mark.parametrize(
    "raw, error, reason",
    [
        (b"x" * (MAX_LINE_BYTES + 1) + b"\n", LineTooLongError, "line too long"),
        (b"\xff\xfe\n", InvalidUtf8Error, "invalid utf-8"),
        (b"go depth \xc3\n", InvalidUtf8Error, "invalid utf-8"),
        (b"\xed\xa0\x80\n", InvalidUtf8Error, "invalid utf-8"),  # an encoded surrogate
    ],
)
def test_decode_line_errors(raw, error, reason):
    with pytest.raises(error) as caught:
        decode_line(raw)
    assert caught.value.reason == reason


def _read_all(data: bytes, max_bytes: int = MAX_LINE_BYTES):
    reader = LineReader(io.BytesIO(data), max_bytes)
    out: List[object] = []
    while True:
        try:
            line = reader.read_line()
        except CommandError as exc:
            out.append(("error", str(exc)))
            continue
        if line is None:
            return out
        out.append(line)


def test_line_reader_discards_long_and_bad_lines_and_goes_on():
    data = (
        b"uci\r\n"
        + b"y" * (MAX_LINE_BYTES + 20000)
        + b"\n"
        + b"x" * MAX_LINE_BYTES
        + b"\r\n"
        + b"z" * (MAX_LINE_BYTES + 1)
        + b"\r\n"
        + b"\xff\n"
        + b"\n"
        + b"isready"
    )
    assert _read_all(data) == [
        "uci",
        ("error", "line too long"),
        "x" * MAX_LINE_BYTES,
        ("error", "line too long"),
        ("error", "invalid utf-8"),
        "",
        "isready",
    ]


def test_line_reader_long_line_at_end_of_input():
    assert _read_all(b"a\n" + b"q" * 50, max_bytes=10) == ["a", ("error", "line too long")]


def test_line_reader_iterates_until_end():
    assert list(LineReader(io.BytesIO(b"a\nb\r\n"))) == ["a", "b"]
    assert LineReader(io.BytesIO(b"")).read_line() is None


def test_docstring_examples():
    assert doctest.testmod(protocol.commands).failed == 0


def test_moves_text_keeps_an_error_line_short() -> None:
    from protocol.commands import moves_text
    assert moves_text(["11-15", "23-19"]) == "11-15 23-19"
    long = [f"{i}-{i + 1}" for i in range(20000)]
    text = moves_text(long)
    assert text.startswith("20000 moves, the last 8: 19992-19993") and len(text) < 200
