"""Checks 28-32: bad input. Each bad line gets exactly one ``error`` line and changes nothing
(verified with ``d`` when the engine offers it)."""

from __future__ import annotations

from typing import List, Tuple, Union

from ..commands import MAX_LINE_BYTES
from .errors import fail
from .harness import Context
from .steps import error_base, expect_errors

__all__ = ["BAD_GO_LINES", "check_unknown_command", "check_bad_go", "check_bad_fen",
           "check_bad_moves", "check_bad_lines"]


def check_unknown_command(context: Context) -> str:
    """Unknown commands (also wrong case) answer 'error unknown command: <word>'."""
    handle = context.engine()
    base = error_base(context, handle)
    cases = [(line, f"unknown command: {line.split()[0]}", True)
             for line in ("foo 1 2", "GO depth 1", "Position startpos", "isready?")]
    return f"{len(cases)} unknown commands answered; " + expect_errors(context, handle, base, cases)


BAD_GO_LINES = (
    "go depth", "go depth x", "go depth 0", "go depth 100", "go depth -1", "go depth 3.5",
    "go nodes 0", "go nodes 99999999999999999999", "go movetime 0", "go movetime -5",
    "go depth 3 depth 4", "go infinite depth 3", "go infinite ponder", "go wtime 1000",
    "go winc 100", "go wtime 100 btime 100 movestogo 0", "go depth 3 foo",
)


def check_bad_go(context: Context) -> str:
    """Bad go arguments answer 'error go: ...' and start no search."""
    handle = context.engine()
    base = error_base(context, handle)
    note = expect_errors(context, handle, base, [(line, "go:", False) for line in BAD_GO_LINES])
    late = handle.drain(context.config.grace)
    if late:
        raise fail(f"a search ran after a bad go: {late[0]!r}")
    return f"{len(BAD_GO_LINES)} bad go lines rejected, no search; {note}"


def check_bad_fen(context: Context) -> str:
    """Bad FENs answer 'error position: ...' and keep the position."""
    handle = context.engine()
    base = error_base(context, handle)
    squares = context.rules.geometry.squares
    lines = ["position fen X:Y", "position fen", "position", f"position fen W:W{squares + 1}:B1",
             "position fen Q:W21:B1", "position fen W:W5:B5", "position fen W:W5:B1 foo",
             "position startpos fen W:W5:B1"]
    note = expect_errors(context, handle, base, [(line, "position:", False) for line in lines])
    return f"{len(lines)} bad position lines rejected; {note}"


def check_bad_moves(context: Context) -> str:
    """Illegal and malformed moves answer 'error position|move: ...'; nothing is played."""
    handle = context.engine()
    rules = context.rules
    base = error_base(context, handle)
    position = base[0]
    start_illegal = rules.illegal_move(rules.start())
    legal = rules.sorted_moves(position)[0]
    after_illegal = rules.illegal_move(position.play_raw(legal.raw))
    kings_illegal = rules.illegal_move(rules.from_fen(rules.kings_fen()))
    cases = [(f"position startpos moves {start_illegal}", "position:", False),
             ("position startpos moves bad!", "position:", False),
             (f"position fen {rules.kings_fen()} moves {kings_illegal}", "position:", False),
             (f"move {rules.illegal_move(position)}", "move:", False),
             (f"move {legal.pdn()} {after_illegal}", "move:", False),
             ("move", "move:", False),
             ("move 11-15-", "move:", False)]
    return f"{len(cases)} bad moves rejected; " + expect_errors(context, handle, base, cases)


def check_bad_lines(context: Context) -> str:
    """Extra arguments, over-long lines and invalid UTF-8 are errors; quit with an argument
    does not exit."""
    handle = context.engine()
    base = error_base(context, handle)
    cases: List[Tuple[Union[str, bytes], str, bool]] = [
        ("isready 1", "isready:", False), ("uci now", "uci:", False),
        ("stop now", "stop:", False), ("quit now", "quit:", False),
        ("ucinewgame x", "ucinewgame:", False),
        (b"isready " + b"x" * MAX_LINE_BYTES + b"\n", "line too long", True),
        (b"isready \xff\n", "invalid utf-8", True), (b"\xed\xa0\x80\n", "invalid utf-8", True),
    ]
    note = expect_errors(context, handle, base, cases)
    if not handle.alive:
        raise fail("the engine exited")
    return f"{len(cases)} bad lines rejected; {note}"
