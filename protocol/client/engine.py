"""The reference client for the protocol of PROTOCOL.md: :class:`Engine`.

``uci``/``uciok`` handshake, options, positions, searches with ``info``/``bestmove``, and
``isready`` after every command that answers nothing, so a rejected command raises
:class:`~protocol.client.errors.CommandRejectedError` at once::

    with Engine.popen([sys.executable, "-m", "protocol"]) as engine:
        engine.set_option("Variant", "russian")
        engine.position(moves=["c3-d4"])
        result = engine.go(Limit(depth=4))        # or Limit(time=0.5): seconds
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from draughts_engine.search.limits import SearchLimits
from protocol.client.connection import EngineConnection
from protocol.client.errors import CommandRejectedError, ProtocolError
from protocol.client.infos import InfoLog
from protocol.client.limit import Limit, search_limits
from protocol.client.parsers import (error_reason, first_word, parse_bestmove, parse_id,
                                     parse_info, parse_option)
from protocol.client.reports import BestMove, EngineOption, GoResult, InfoReport
from protocol.commands import PlayMoves, SetOption, SetPosition, Undo, go_tokens, token_spans

__all__ = ["Engine"]


@dataclass
class _Search:
    """The client's view of a running search."""

    limits: SearchLimits
    on_info: Optional[Callable[[InfoReport], None]]
    infos: InfoLog = field(default_factory=InfoLog)
    sent: float = 0.0  # when go was sent (time.monotonic)
    result: Optional[BestMove] = None
    arrived: float = 0.0  # when the bestmove line was read


class Engine(EngineConnection):
    """A synchronous connection to one engine (see the module docstring).

    Timeouts (seconds): ``timeout`` for the handshake, ``isready`` and commands; ``go`` waits
    for its time limit plus ``go_margin`` (or ``search_timeout`` when the limits carry no time);
    ``quit_timeout`` is how long to wait at each step of the quit/terminate/kill ladder. With
    ``strict`` (default) an unexpected line raises :class:`ProtocolError`; otherwise it is only
    recorded in the transcript. ``info string`` lines are always accepted and ignored.
    ``info`` lines are advice: read leniently (a malformed field is left out of its report,
    never an error), and parsed only when needed (:mod:`protocol.client.infos`).
    """

    _search: Optional[_Search]

    # ------------------------------------------------------------------ state

    @property
    def protocol_version(self) -> Optional[int]:
        """The ``id protocol`` number from the handshake, None if absent or not a number."""
        value = self.id.get("protocol", "")
        return int(value) if value.isascii() and value.isdigit() else None

    # ------------------------------------------------------------------ raw lines

    def read_until(
        self, predicate: Callable[[str], bool], timeout: Optional[float] = None
    ) -> List[str]:
        """Read lines until one satisfies ``predicate``; return them all, that one last.

        Low-level: lines are not interpreted (a running search does not see them).
        """
        deadline = self._deadline(timeout)
        lines: List[str] = []
        while True:
            lines.append(self._next_line(deadline, "the expected line"))
            if predicate(lines[-1]):
                return lines

    def sync(self, timeout: Optional[float] = None) -> List[str]:
        """Send ``isready`` and return the lines received before ``readyok``, uninterpreted."""
        self.send_raw("isready")
        return self.read_until(lambda line: line == "readyok", timeout)[:-1]

    # ------------------------------------------------------------------ commands

    def handshake(self, timeout: Optional[float] = None) -> None:
        """``uci`` until ``uciok``: fills :attr:`id` and :attr:`options`."""
        deadline = self._deadline(timeout)
        self.send_raw("uci")
        ids: Dict[str, str] = {}
        options: Dict[str, EngineOption] = {}
        while True:
            line = self._next_line(deadline, "uciok")
            word = first_word(line)
            if word == "uciok":
                break
            if word == "id":
                key, value = self._parsed(parse_id, line)
                ids[key] = value
            elif word == "option":
                spec = self._parsed(parse_option, line)
                options[spec.name] = spec
            elif not self._is_info_string(line):
                self._unexpected(line, "during the uci handshake")
        self.id, self.options = ids, options

    def option(self, name: str) -> Optional[EngineOption]:
        """The engine's option called ``name`` (case-insensitive), or None."""
        folded = name.casefold()
        return next((o for n, o in self.options.items() if n.casefold() == folded), None)

    def set_option(
        self, name: str, value: Union[str, int, bool, None] = None, timeout: Optional[float] = None
    ) -> None:
        """``setoption name <name> value <value>`` (None for a button), checked by ``isready``."""
        if isinstance(value, bool):
            text: Optional[str] = "true" if value else "false"
        else:
            text = None if value is None else str(value)
        self._command(SetOption(name, text).to_line(), timeout)
        if name.strip().casefold() == "multipv" and text is not None and text.strip().isdigit():
            self._multipv = int(text)

    def _use_multipv(self, lines: Optional[int]) -> None:
        """``setoption name MultiPV value <lines>`` when it differs from the last value set
        (an engine without the option: :class:`ValueError` for more than one line)."""
        if lines is None:
            return
        if isinstance(lines, bool) or not isinstance(lines, int) or lines < 1:
            raise ValueError(f"multipv must be a whole number from 1, got {lines!r}")
        option = self.option("MultiPV")
        if option is None:
            if lines > 1:
                raise ValueError(f"the engine has no MultiPV option: multipv {lines} "
                                 "cannot be asked")
            return
        if option.max is not None and lines > option.max:
            raise ValueError(f"multipv must be in 1..{option.max} for this engine, got {lines}")
        if getattr(self, "_multipv", 1) != lines:
            self.set_option(option.name, lines)
            self._multipv = lines

    def new_game(self, timeout: Optional[float] = None) -> None:
        """``ucinewgame``, checked by ``isready``."""
        self._command("ucinewgame", timeout)

    def position(
        self, fen: Optional[str] = None, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> None:
        """``position startpos|fen <fen> [moves ...]``, checked by ``isready``."""
        self._command(SetPosition(fen, tuple(moves)).to_line(), timeout)

    def play(self, moves: Sequence[str], timeout: Optional[float] = None) -> None:
        """``move m1 m2 ...`` on the current position, checked by ``isready``."""
        self._command(PlayMoves(tuple(moves)).to_line(), timeout)

    def undo(self, count: int = 1, timeout: Optional[float] = None) -> None:
        """``undo [N]``, checked by ``isready``."""
        self._command(Undo(count).to_line(), timeout)

    # ------------------------------------------------------------------ searching

    def start_search(
        self, limits: Union[Limit, SearchLimits] = SearchLimits(), *,
        on_info: Optional[Callable[[InfoReport], None]] = None
    ) -> None:
        """Send ``go <limits>`` (a :class:`~protocol.client.limit.Limit`, in seconds, or a
        :class:`SearchLimits`) and return at once; finish with :meth:`stop` or
        :meth:`wait_bestmove`."""
        limits = search_limits(limits)
        self._require_idle()
        line = " ".join(["go"] + go_tokens(limits))
        sent = time.monotonic()
        self.send_raw(line)
        self._search = _Search(limits, on_info, sent=sent)

    # ------------------------------------------------------------------ internals

    def _parsed(self, parser: Callable[[str], Any], line: str) -> Any:
        try:
            return parser(line)
        except ProtocolError as exc:
            raise ProtocolError(exc.message, self.transcript) from None

    @staticmethod
    def _is_info_string(line: str) -> bool:
        spans = token_spans(line)
        return len(spans) >= 2 and spans[0][0] == "info" and spans[1][0] == "string"

    def _route_search_line(self, line: str) -> bool:
        """Give ``info``/``bestmove`` to the running search; False if it is not for it."""
        search = self._search
        word = first_word(line)
        if search is None or search.result is not None or word not in ("info", "bestmove"):
            return False
        if word == "bestmove":
            search.result = self._parsed(parse_bestmove, line)
            search.arrived = self._arrived
            return True
        if search.on_info is None:
            search.infos.add_line(line)  # parsed (or not) when the result is built
        else:
            self._add_info(search, parse_info(line, lenient=True))
        return True

    def _confirm(self, deadline: float) -> None:
        self.send_raw("isready")
        rejected: Optional[str] = None
        while True:
            line = self._next_line(deadline, "readyok")
            if line == "readyok":
                break
            if self._route_search_line(line) or self._is_info_string(line):
                continue
            if first_word(line) == "error":
                rejected = rejected if rejected is not None else error_reason(line)
            else:
                self._unexpected(line, "before readyok")
        if rejected is not None:
            raise CommandRejectedError(rejected, self.transcript)

    def _await_result(self, deadline: float) -> GoResult:
        search = self._require_search()
        while search.result is None:
            line = self._next_line(deadline, "bestmove")
            if self._route_search_line(line) or self._is_info_string(line):
                continue
            if first_word(line) == "error":
                self._search = None
                raise CommandRejectedError(error_reason(line), self.transcript)
            self._unexpected(line, "during a search")
        self._search = None
        return GoResult(search.result.move, search.result.ponder, search.infos.reports(),
                        max(0.0, search.arrived - search.sent))
