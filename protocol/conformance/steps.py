"""The building blocks of checks: send a line and expect silence, one ``error``, a search that
ends in time, a search held until ``stop``, an unchanged position, a clean exit."""

from __future__ import annotations

import time
from typing import Optional, Sequence, Tuple, Union

from draughts_engine import Position

from .config import Config
from .errors import fail
from .harness import Context, EngineHandle
from .search_run import SearchRun, validate_search
from .text import first_word
from .wire import PositionCommand

__all__ = [
    "expect_silent",
    "expect_errors",
    "expect_error",
    "set_position",
    "bounded_search",
    "held_search",
    "check_latency",
    "error_base",
    "verify_unchanged",
    "exit_limit",
    "expect_exit",
]


def expect_silent(handle: EngineHandle, line: Union[str, bytes]) -> None:
    """Send a command that prints nothing on success; ``isready`` must follow alone."""
    handle.send(line)
    lines = handle.sync()
    if lines:
        shown = line if isinstance(line, str) else line.decode("utf-8", "backslashreplace")
        raise fail(f"{shown.strip()!r} was answered {lines[0]!r}")


def expect_errors(context: Context, handle: EngineHandle, base: Tuple[Position, int, bool],
                  cases: Sequence[Tuple[Union[str, bytes], str, bool]]) -> str:
    """Send each bad line of ``cases`` (line, reason prefix, exact): each must be answered by one
    matching ``error`` line and (with ``d``) leave the position ``base``. Returns a note."""
    note = "position not verified (no d)"
    for line, prefix, exact in cases:
        expect_error(handle, line, prefix, exact)
        note = verify_unchanged(context, handle, base)
    return note + (" after each" if base[2] else "")


def expect_error(handle: EngineHandle, line: Union[str, bytes], prefix: str,
                 exact: bool = False) -> str:
    """Send a bad line: exactly one ``error <prefix>...`` must answer it before ``readyok``.

    ``exact`` requires the whole reason to equal ``prefix``. Returns the reason.
    """
    handle.send(line)
    lines = handle.sync()
    shown = line if isinstance(line, str) else repr(line)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    errors = [text for text in lines if first_word(text) == "error"]
    if len(lines) != 1 or len(errors) != 1:
        got = "nothing" if not lines else " | ".join(lines[:3])
        raise fail(f"{shown!r} must be answered by one error line, got {got}")
    reason = errors[0][len("error "):]
    if (reason != prefix) if exact else not reason.startswith(prefix):
        raise fail(f"{shown!r} was answered {errors[0]!r}, expected 'error {prefix}"
                   f"{'' if exact else '...'}'")
    return reason


def set_position(handle: EngineHandle, fen: Optional[str] = None,
                 moves: Sequence[str] = ()) -> None:
    """``position startpos|fen <fen> [moves ...]``; it must be accepted silently."""
    expect_silent(handle, PositionCommand(fen, tuple(moves)).to_line())


def bounded_search(context: Context, handle: EngineHandle, go_line: str, root: Position,
                   limit_ms: Optional[int] = None, max_depth: Optional[int] = None) -> str:
    """Run a search that ends by itself, validate it, and (with ``limit_ms``) check it ended
    within the limit plus the stop threshold. Returns a summary."""
    run = SearchRun(handle, go_line)
    waited = run.wait_bestmove((limit_ms or 0) / 1000 + context.config.timeout)
    summary = validate_search(run, context.rules, root, max_depth)
    run.settle(context.config.timeout)
    elapsed_ms = round(waited * 1000)
    if limit_ms is not None and elapsed_ms > limit_ms + context.config.stop_threshold_ms:
        raise fail(f"{go_line!r} took {elapsed_ms} ms, more than {limit_ms} ms + "
                   f"{context.config.stop_threshold_ms} ms")
    return f"{summary} in {elapsed_ms} ms"


def held_search(context: Context, handle: EngineHandle, go_line: str, root: Position) -> str:
    """``go infinite``-like: no ``bestmove`` within the grace period, then ``stop`` brings a
    legal one within the threshold. Returns a summary."""
    run = SearchRun(handle, go_line)
    run.hold(context.config.grace)
    latency = run.stop(context.config.timeout)
    summary = validate_search(run, context.rules, root)
    run.settle(context.config.timeout)
    check_latency("stop", latency, context.config)
    return f"{summary}; stop answered in {round(latency * 1000)} ms"


def check_latency(what: str, seconds: float, config: Config) -> None:
    """Fail when ``seconds`` exceeds the stop threshold."""
    if seconds > config.threshold:
        raise fail(f"{what} took {round(seconds * 1000)} ms, more than "
                   f"{config.stop_threshold_ms} ms")


def error_base(context: Context, handle: EngineHandle) -> Tuple[Position, int, bool]:
    """Set a position after two plies (start position without ``d``) for error checks.

    Returns (position, ply, verifiable): ``verifiable`` says whether ``d`` can show it.
    """
    rules = context.rules
    if context.offers(handle, "d"):
        moves = rules.opening_line().moves[:2]
        set_position(handle, moves=moves)
        return rules.play(rules.start(), moves), 2, True
    set_position(handle)
    return rules.start(), 0, False


def verify_unchanged(context: Context, handle: EngineHandle,
                     base: Tuple[Position, int, bool]) -> str:
    """Check the position is still ``base`` (via ``d`` when offered); a note for the reason."""
    position, ply, verifiable = base
    if not verifiable:
        return "position not verified (no d)"
    shown = context.display(handle)
    if context.rules.from_fen(shown.fen) != position or shown.ply != ply:
        raise fail(f"the position changed: d shows {shown.fen} ply {shown.ply}, expected "
                   f"{position.fen()} ply {ply}")
    return "position unchanged"


def exit_limit(config: Config) -> float:
    """Seconds an engine may take to exit after ``quit`` or end of input."""
    return config.threshold + 1.0


def expect_exit(handle: EngineHandle, config: Config, what: str, sent_at: float,
                bestmove_allowed: bool = False) -> str:
    """The process must exit with status 0 within :func:`exit_limit`; it may write nothing
    but ``info`` lines, and (when ``bestmove_allowed``: a search was stopped by the exit) one
    legal-looking ``bestmove`` line (PROTOCOL.md section 9)."""
    code = handle.wait_exit(exit_limit(config))
    if code is None:
        raise fail(f"still running {exit_limit(config):.1f} s after {what}")
    took = round((time.monotonic() - sent_at) * 1000)
    late = [line for line in handle.drain(0.2) if first_word(line) not in ("info",)]
    if code != 0:
        raise fail(f"exit status {code} after {what}")
    if bestmove_allowed and late and first_word(late[0]) == "bestmove":
        late = late[1:]
    if late:
        raise fail(f"wrote {late[0]!r} after {what}")
    return f"{what}: exit status 0 in {took} ms"
