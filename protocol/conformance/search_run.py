"""Watching one search: :class:`SearchRun` sends a ``go`` and reads its ``info`` and ``bestmove``
lines as they come; :func:`validate_search` judges the finished search against the rules."""

from __future__ import annotations

import time
from typing import Callable, List, Optional, Tuple, Union

from draughts_engine import Position

from .errors import CheckFailed, MoveTextError, fail
from .harness import EngineHandle
from .oracle import Rules
from .text import first_word, plural
from .validators import check_info_line, check_info_sequence
from .wire import (
    BestMove,
    EngineTimeoutError,
    InfoReport,
    ProtocolError,
    parse_bestmove,
    parse_info,
)

__all__ = ["SearchRun", "validate_search"]


class SearchRun:
    """One ``go`` on an engine: sends it, keeps its ``info`` lines and its ``bestmove``.

    A second ``bestmove``, an ``info`` line after the ``bestmove`` or a malformed one raises
    :class:`CheckFailed` as soon as it is read. Times are ``time.monotonic()`` seconds, taken
    when the line is read (the suite reads continuously while it waits).
    """

    def __init__(self, handle: EngineHandle, go_line: str, send: bool = True) -> None:
        """``send``: send ``go_line`` now (False: it was sent already, queued behind
        another search)."""
        self.handle = handle
        self.go_line = go_line
        self.infos: List[Tuple[str, InfoReport]] = []
        self.best: Optional[BestMove] = None
        self.best_at: Optional[float] = None
        if send:
            handle.send(go_line)
        self.started = time.monotonic()

    def _route(self, line: str) -> Optional[str]:
        """Keep a search line (None); return any other line."""
        word = first_word(line)
        if word == "info":
            if self.best is not None:
                raise fail(f"info line after the bestmove of {self.go_line!r}: {line!r}")
            try:
                self.infos.append((line, parse_info(line)))
            except ProtocolError as exc:
                raise fail(f"malformed info line: {exc.message}") from None
            return None
        if word == "bestmove":
            if self.best is not None:
                raise fail(f"a second bestmove for {self.go_line!r}: {line!r}")
            try:
                self.best = parse_bestmove(line)
            except ProtocolError as exc:
                raise fail(exc.message) from None
            self.best_at = time.monotonic()
            return None
        return line

    def _next(self, deadline: float, timeout: float, waiting_for: str) -> Optional[str]:
        """The next line, routed: None for a search line, else the line."""
        try:
            line = self.handle.read(max(0.0, deadline - time.monotonic()))
        except EngineTimeoutError:
            raise fail(f"timed out after {timeout:.1f} s waiting for {waiting_for} "
                       f"(during {self.go_line!r})") from None
        return self._route(line)

    def read_other(self, timeout: float, waiting_for: str) -> str:
        """The next line that is not an ``info``/``bestmove`` line of this search."""
        deadline = time.monotonic() + timeout
        while True:
            other = self._next(deadline, timeout, waiting_for)
            if other is not None:
                return other

    def _unexpected(self, line: str) -> CheckFailed:
        if first_word(line) == "error":
            return fail(f"the engine answered {line!r} during {self.go_line!r}")
        return fail(f"unexpected line during {self.go_line!r}: {line!r}")

    def wait_bestmove(self, timeout: float) -> float:
        """Wait for the ``bestmove``; return seconds from ``go`` to it."""
        deadline = time.monotonic() + timeout
        while self.best is None:
            other = self._next(deadline, timeout, "bestmove")
            if other is not None:
                raise self._unexpected(other)
        assert self.best_at is not None
        return self.best_at - self.started

    def hold(self, seconds: float, allow_bestmove: bool = False) -> None:
        """Read for ``seconds``: search lines only; a ``bestmove`` fails unless allowed."""
        deadline = time.monotonic() + seconds
        had_best = self.best is not None
        while time.monotonic() < deadline:
            try:
                line = self.handle.read(max(0.0, deadline - time.monotonic()))
            except EngineTimeoutError:
                break
            other = self._route(line)
            if other is not None:
                raise self._unexpected(other)
            if not had_best and self.best is not None and not allow_bestmove:
                raise fail(f"bestmove before stop/ponderhit after {self.go_line!r}: "
                           f"{self.best_line()}")

    def best_line(self) -> str:
        """The ``bestmove`` line as read (``(no bestmove)`` before it came)."""
        if self.best is None:
            return "(no bestmove)"
        text = f"bestmove {self.best.move or '(none)'}"
        return text + (f" ponder {self.best.ponder}" if self.best.ponder else "")

    def signal(self, word: str, timeout: float) -> float:
        """Send ``stop`` or ``ponderhit`` and wait for the ``bestmove``; return the seconds
        from sending to the ``bestmove`` (0 when it had already come)."""
        if self.best is not None:
            self.handle.send(word)
            return 0.0
        sent = time.monotonic()
        self.handle.send(word)
        deadline = sent + timeout
        while self.best is None:
            other = self._next(deadline, timeout, f"bestmove after {word}")
            if other is not None:
                raise self._unexpected(other)
        assert self.best_at is not None
        return self.best_at - sent

    def stop(self, timeout: float) -> float:
        """``stop`` and wait for the ``bestmove``; seconds from ``stop`` to it."""
        return self.signal("stop", timeout)

    def exchange(self, line: Union[str, bytes], timeout: float) -> List[str]:
        """Send ``line`` then ``isready``; the non-search lines before ``readyok``."""
        self.handle.send(line)
        return self.collect("isready", lambda text: text == "readyok", timeout)[:-1]

    def collect(self, line: str, last: Callable[[str], bool], timeout: float) -> List[str]:
        """Send ``line``; the non-search lines up to and including the one ``last`` accepts."""
        self.handle.send(line)
        deadline = time.monotonic() + timeout
        lines: List[str] = []
        while not lines or not last(lines[-1]):
            other = self._next(deadline, timeout, f"the answer to {line!r}")
            if other is not None:
                lines.append(other)
        return lines

    def ready_latency(self, timeout: float) -> float:
        """Send ``isready``; seconds until ``readyok`` (other non-search lines fail)."""
        sent = time.monotonic()
        lines = self.collect("isready", lambda text: text == "readyok", timeout)
        if len(lines) > 1:
            raise self._unexpected(lines[0])
        return time.monotonic() - sent

    def settle(self, timeout: float) -> None:
        """After the ``bestmove``: ``isready`` must come back with nothing else before it."""
        lines = self.collect("isready", lambda text: text == "readyok", timeout)
        if len(lines) > 1:
            raise self._unexpected(lines[0])


def validate_search(run: SearchRun, rules: Rules, root: Position,
                    max_depth: Optional[int] = None) -> str:
    """Check a finished search: its ``info`` lines and a legal ``bestmove`` (and ``ponder``)
    for ``root``, or ``bestmove (none)`` when ``root`` has no legal move. Returns a summary."""
    for line, report in run.infos:
        check_info_line(line, report, rules, root, max_depth)
    check_info_sequence([report for _, report in run.infos])
    best = run.best
    assert best is not None
    if not root.legal_moves():
        if best.move is not None:
            raise fail(f"bestmove {best.move} in a position without legal moves ({root.fen()})")
        return "bestmove (none)"
    if best.move is None:
        raise fail(f"bestmove (none) but {root.fen()} has legal moves")
    try:
        move = rules.resolve(root, best.move)
        if best.ponder is not None:
            rules.resolve(root.play_raw(move.raw), best.ponder)
    except MoveTextError as exc:
        raise fail(f"{run.best_line()}: {exc}") from None
    depths = [r.depth for _, r in run.infos if r.depth is not None]
    detail = f", {plural(len(run.infos), 'info line')}" + (
        f" to depth {max(depths)}" if depths else "")
    return run.best_line() + detail
