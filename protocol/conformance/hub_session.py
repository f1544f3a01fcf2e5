"""Talking to a Hub v2 engine for the Hub checks: one process, its raw lines, and the judgement
of one search (its ``info`` lines and exactly one ``done``).

:class:`HubSession` reads with a timeout on every wait. :meth:`HubSession.search` is the common
step of the search checks: ``pos``, ``level`` and ``go`` lines, then every line up to ``done``;
an ``error`` line among them fails the check with that line (a refused ``pos`` would otherwise
leave the engine searching another position, and the check judging the wrong one). Each search
check starts with :meth:`HubSession.settle` (``ping``/``pong``), so it judges its own lines only.
"""

from __future__ import annotations

import time
from typing import Dict, List, Optional, Sequence, Tuple

from draughts_engine.errors import DraughtsError
from draughts_engine.notation import parse_hub_move
from draughts_engine.position import Position

from .errors import CheckFailed, fail
from .wire import EngineError, HubEngine, HubSyntaxError, format_hub_line, hub_pos, parse_hub_line

__all__ = ["HubFatal", "HubSession", "command_of", "pairs_of", "check_search", "BOOK_OFF_VALUES"]

BOOK_OFF_VALUES = ("false", "off", "none", "no", "0")
"""Values that switch an engine's opening book off, by the ``type`` of its ``book`` param."""

Pairs = List[Tuple[str, Optional[str]]]


class HubFatal(CheckFailed):
    """A failure after which the engine cannot be checked further (no handshake, no ``ready``)."""


def command_of(line: str) -> str:
    """The command word of a Hub line ('' for a line that is not one)."""
    try:
        return parse_hub_line(line)[0]
    except HubSyntaxError:
        return ""


def pairs_of(line: str) -> Pairs:
    """The ``name=value`` pairs of a Hub line (a bare flag has value None); malformed: FAIL."""
    try:
        return parse_hub_line(line)[1]
    except HubSyntaxError as exc:
        raise fail(f"malformed line {line!r}: {exc}") from None


def check_search(lines: Sequence[str], root: Position) -> str:
    """Validate the ``info`` lines and the one ``done`` line of a search from ``root``; return
    the best move text. Raises :class:`CheckFailed`."""
    errors = [line for line in lines if command_of(line) == "error"]
    if errors:
        raise fail(f"the engine answered {errors[0]!r} while a search was being set up")
    done = [line for line in lines if command_of(line) == "done"]
    if len(done) != 1:
        raise fail(f"expected exactly one done line, got {len(done)}")
    for line in lines:
        if command_of(line) == "info":
            _check_info(line)
    pairs = pairs_of(done[0])
    if not pairs or pairs[0][0] != "move" or pairs[0][1] is None:
        raise fail(f"done must start with move=<move>: {done[0]!r}")
    best = pairs[0][1]
    try:
        move = parse_hub_move(root, best)
    except DraughtsError as exc:
        raise fail(f"done move={best} is not a legal Hub move: {exc}") from None
    ponder = dict(pairs).get("ponder")
    if ponder:
        try:
            parse_hub_move(root.play_raw(move.raw), ponder)
        except DraughtsError as exc:
            raise fail(f"done ponder={ponder} is not legal after {best}: {exc}") from None
    return best


def _check_info(line: str) -> None:
    for name, value in pairs_of(line):
        if value is None:
            raise fail(f"bare flag {name!r} in info line {line!r}")
        if name in ("depth", "nodes") and not value.isdigit():
            raise fail(f"{name} is not an integer in {line!r}")
        if name in ("score", "time", "nps"):
            try:
                float(value)
            except ValueError:
                raise fail(f"{name} is not a number in {line!r}") from None


def max_depth(lines: Sequence[str]) -> Optional[int]:
    """The deepest ``depth=`` of the ``info`` lines among ``lines`` (None without one)."""
    depths = [int(value) for line in lines if command_of(line) == "info"
              for name, value in pairs_of(line) if name == "depth" and value and value.isdigit()]
    return max(depths) if depths else None


class HubSession:
    """One Hub engine process and the raw lines exchanged with it.

    ``params`` holds the ``param`` lines of the handshake by name. Every wait is bounded by
    ``timeout`` seconds unless a call says otherwise; an engine that ends its output raises
    :class:`protocol.client.EngineError`.
    """

    def __init__(self, command: Sequence[str], cwd: Optional[str], timeout: float) -> None:
        self.timeout = timeout
        self.engine = HubEngine.popen(command, cwd=cwd, handshake=False, strict=False,
                                      timeout=timeout, quit_timeout=2.0)
        self.params: Dict[str, Dict[str, Optional[str]]] = {}

    def send(self, line: str) -> None:
        """Send one line (LF added)."""
        self.engine.send_raw(line)

    def read(self, timeout: Optional[float] = None) -> str:
        """The next line."""
        return self.engine.read_line(self.timeout if timeout is None else timeout)

    def until(self, command: str, timeout: Optional[float] = None,
              fatal: bool = False) -> List[str]:
        """Lines up to and including the first whose command is ``command``; FAIL (or, with
        ``fatal``, :class:`HubFatal`) when it does not come in time."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        failure = HubFatal if fatal else CheckFailed
        lines: List[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise failure(f"no {command!r} line within {limit:g} s (got {lines[-3:]})")
            try:
                line = self.read(left)
            except EngineError as exc:
                if not fatal:
                    raise
                raise HubFatal(f"waiting for {command!r}: {exc.message}") from None
            lines.append(line)
            if command_of(line) == command:
                return lines

    def ping(self, timeout: Optional[float] = None) -> List[str]:
        """Send ``ping``; the lines before ``pong``."""
        self.send("ping")
        return self.until("pong", timeout)[:-1]

    def settle(self) -> None:
        """``ping`` and wait for ``pong``: any line before it (a late ``info`` or ``done`` of
        the last search) fails. Every search check starts with it, so that a check judges its
        own search only."""
        stray = self.ping()
        if stray:
            raise fail(f"unexpected lines after the last search: {stray[:3]}")

    def set_position(self, root: Position, moves: Sequence[str] = ()) -> None:
        """:meth:`settle`, then send ``pos pos=<root> [moves="..."]``."""
        self.settle()
        pairs: List[Tuple[str, object]] = [("pos", hub_pos(root))]
        if moves:
            pairs.append(("moves", " ".join(moves)))
        self.send(format_hub_line("pos", *pairs))

    def search(self, setup: Sequence[str], root: Position, timeout: float,
               go: str = "go think") -> Tuple[List[str], float]:
        """Send the ``setup`` lines and ``go``; every line up to ``done`` and the seconds from
        ``go`` to it. The search is judged by :func:`check_search` against ``root``."""
        for line in setup:
            self.send(line)
        started = time.monotonic()
        self.send(go)
        lines = self.until("done", timeout)
        return lines, time.monotonic() - started

    def set_param(self, name: str, value: str) -> None:
        """Send ``set-param name=<name> value=<value>``."""
        self.send(format_hub_line("set-param", ("name", name), ("value", value)))

    def book_off_value(self) -> Optional[str]:
        """The value that switches the engine's ``book`` param off, or None (no such param, or
        no value of its type reads as off)."""
        book = self.params.get("book")
        if book is None:
            return None
        kind = (book.get("type") or "").casefold()
        if kind == "bool":
            return "false"
        if kind == "int":
            return "0" if book.get("min") in (None, "0") else None
        if kind == "enum":
            values = (book.get("values") or "").split()
            return next((v for v in values if v.casefold() in BOOK_OFF_VALUES), None)
        return None

    def close(self) -> Optional[int]:
        """``quit`` (then kill when it does not exit); the exit status."""
        return self.engine.quit()
