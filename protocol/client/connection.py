"""What every engine client shares, whatever protocol it speaks: :class:`EngineConnection`.

It owns the transport and the transcript, reads lines with deadlines, keeps the running search,
and reaps the engine.  :class:`protocol.client.engine.Engine` (PROTOCOL.md) and
:class:`protocol.hub.client.HubEngine` (Hub v2) add their protocol on top.
"""

from __future__ import annotations

import dataclasses
import math
import queue
import time
from typing import (IO, TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence,
                    Tuple, Type, TypeVar, Union)

from draughts_engine.search.limits import SearchLimits
from protocol.client.errors import (
    ClientStateError,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolError,
)
from protocol.client.limit import Limit, search_limits
from protocol.client.reports import EngineOption, GoResult, InfoReport
from protocol.client.transcript import LogTarget, Transcript
from protocol.client.transport import ProcessTransport, StreamTransport, Transport

__all__ = ["EngineConnection"]

if TYPE_CHECKING:  # pragma: no cover
    from protocol.client.analysis import Analysis

_C = TypeVar("_C", bound="EngineConnection")

#: Seconds to wait for the exit status of an engine that closed its input or output (it is
#: ending; on a loaded host its exit can take more than a moment, and the status is what a
#: user needs to read).
EXIT_WAIT = 2.0


class EngineConnection:
    """What every engine client shares, whatever protocol it speaks.

    It owns the transport and the transcript, reads lines with deadlines, keeps the running
    search (``_search``: an object with ``limits``, ``on_info``, ``infos`` and ``result``) and
    reaps the engine. :class:`Engine` (PROTOCOL.md) and :class:`protocol.hub.client.HubEngine`
    (Hub v2) add their protocol through :meth:`handshake`, :meth:`start_search`,
    :meth:`_confirm` (wait for the answer that confirms a command) and :meth:`_await_result`
    (read until the search's result).

    Timeouts (seconds): ``timeout`` for the handshake, ``isready`` and commands; ``go`` waits
    for its time limit plus ``go_margin`` (or ``search_timeout`` when the limits carry no time);
    ``quit_timeout`` is how long to wait at each step of the quit/terminate/kill ladder. With
    ``strict`` (default) an unexpected line raises :class:`ProtocolError`; otherwise it is only
    recorded in the transcript.
    """

    _PROTOCOL = "protocol"  # the kind of line, in messages
    _PONDERHIT = "ponderhit"  # the command that turns a ponder search into a normal one
    _SKIP_BLANK_LINES = False  # whether the reader passes over empty lines

    def __init__(
        self,
        transport: Transport,
        *,
        log: LogTarget = None,
        strict: bool = True,
        timeout: float = 10.0,
        go_margin: float = 2.0,
        search_timeout: float = 60.0,
        quit_timeout: float = 2.0,
        transcript_lines: int = 40,
    ) -> None:
        self.strict = strict
        self.timeout = timeout
        self.go_margin = go_margin
        self.search_timeout = search_timeout
        self.quit_timeout = quit_timeout
        self.id: Dict[str, str] = {}
        self.options: Dict[str, EngineOption] = {}
        self._transport = transport
        self._transcript = Transcript(transcript_lines, log)
        # each line with the time it was read (the reader thread stamps it: a search's time is
        # measured to the arrival of its result, not to the end of the client's parsing)
        self._inbox: "queue.Queue[Optional[Tuple[str, float]]]" = queue.Queue()
        self._arrived = 0.0  # the arrival time of the last line _next_line returned
        self._eof = False
        self._closed = False
        self._quitting = False  # set by quit() before it sends: waits elsewhere are abandoned
        self._returncode: Optional[int] = None
        self._search: Any = None
        transport.start(self._on_line, self._on_stderr)

    # ------------------------------------------------------------------ construction

    @classmethod
    def popen(
        cls: Type[_C],
        command: Union[str, Sequence[str]],
        *,
        cwd: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        own_session: bool = False,
        handshake: bool = True,
        **options: Any,
    ) -> _C:
        """Start ``command`` (a list, or one string split like a shell would) and (by
        default) do the protocol's handshake.

        ``own_session``: see :meth:`ProcessTransport.spawn`. ``options`` are the keyword
        arguments of the class. If the handshake fails the process is reaped before the
        error propagates.
        """
        transport = ProcessTransport.spawn(command, cwd=cwd, env=env, own_session=own_session)
        return cls._connect(transport, handshake, options)

    @classmethod
    def attach(
        cls: Type[_C],
        to_engine: IO[Any],
        from_engine: IO[Any],
        *,
        stderr: Optional[IO[Any]] = None,
        handshake: bool = True,
        **options: Any,
    ) -> _C:
        """Talk to an engine through existing streams (binary or text), e.g. in tests."""
        return cls._connect(StreamTransport(to_engine, from_engine, stderr), handshake, options)

    @classmethod
    def _connect(cls: Type[_C], transport: Transport, handshake: bool, options: Dict[str, Any]) -> _C:
        engine = cls(transport, **options)
        if handshake:
            try:
                engine.handshake()
            except BaseException:
                engine.quit()
                raise
        return engine

    def __enter__(self: _C) -> _C:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id.get('name', '?')!r} closed={self._closed}>"

    # ------------------------------------------------------------------ state

    @property
    def transcript(self) -> Tuple[str, ...]:
        """The last lines exchanged (``> sent``, ``< received``, ``! stderr``, ``# event``)."""
        return self._transcript.lines()

    @property
    def stderr_lines(self) -> Tuple[str, ...]:
        """The last lines the engine wrote to stderr."""
        return self._transcript.stderr_lines()

    @property
    def searching(self) -> bool:
        """True from ``go`` until the client has read the search's result."""
        return self._search is not None

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once :meth:`quit` has reaped a process."""
        return self._returncode

    # ------------------------------------------------------------------ raw lines

    def send_raw(self, line: Union[str, bytes]) -> None:
        """Send ``line`` plus LF; bytes are sent verbatim (no LF added: CRLF, junk, no end).

        Raises :class:`EngineTerminatedError` when the engine's input is closed.
        """
        if isinstance(line, bytes):
            data = line
            shown = line.decode("utf-8", "backslashreplace")
        else:
            if "\n" in line:
                raise ValueError(f"a {self._PROTOCOL} line cannot contain LF: {line!r}")
            data = (line + "\n").encode("utf-8", "surrogateescape")
            shown = line
        if self._closed:
            raise ClientStateError("the engine connection is closed", self.transcript)
        self._transcript.add(">", shown if len(shown) <= 200 else shown[:200] + "...")
        try:
            self._transport.write(data)
        except (OSError, ValueError) as exc:
            code = self._exit_status()
            raise EngineTerminatedError(
                f"cannot write to the engine: {exc}{_exit_note(code)}", self.transcript, code
            ) from None

    def read_line(self, timeout: Optional[float] = None) -> str:
        """The next line the engine wrote, uninterpreted (timeout default: ``self.timeout``)."""
        return self._next_line(self._deadline(timeout), "a line")

    # ------------------------------------------------------------------ commands

    def handshake(self, timeout: Optional[float] = None) -> None:
        """The protocol's opening exchange: fills :attr:`id` and :attr:`options`."""
        raise NotImplementedError

    def is_ready(self, timeout: Optional[float] = None) -> None:
        """``isready`` -> ``readyok`` (Hub: ``ping`` -> ``pong``); also works during a search.

        Raises :class:`CommandRejectedError` if an ``error`` line arrives before the answer.
        """
        self._confirm(self._deadline(timeout))

    # ------------------------------------------------------------------ searching

    def go(
        self,
        limits: Union[Limit, SearchLimits] = SearchLimits(),
        *,
        timeout: Optional[float] = None,
        on_info: Optional[Callable[[InfoReport], None]] = None,
    ) -> GoResult:
        """Search with ``limits`` (a :class:`~protocol.client.limit.Limit`, in seconds, or a
        :class:`SearchLimits`) and wait for the best move.

        ``timeout`` defaults to the time the limits allow plus ``go_margin`` (or
        ``search_timeout``); ``float("inf")`` waits as long as it takes; a negative or NaN
        timeout raises :class:`ValueError` before anything is sent. ``on_info`` sees each
        ``info`` report as it is read. For ``infinite`` and ``ponder`` use
        :meth:`start_search` and :meth:`stop`.
        """
        limits = search_limits(limits)
        if limits.infinite or limits.ponder:
            raise ValueError("go(infinite/ponder) never ends by itself: use start_search(), "
                             "or analysis() to read the reports as they come")
        _check_timeout(timeout)
        self.start_search(limits, on_info=on_info)
        return self.wait_bestmove(timeout)

    def start_search(
        self, limits: Union[Limit, SearchLimits] = SearchLimits(), *,
        on_info: Optional[Callable[[InfoReport], None]] = None
    ) -> None:
        """Start a search (``limits`` as for :meth:`go`) and return at once; finish with
        :meth:`stop` or :meth:`wait_bestmove`."""
        raise NotImplementedError

    def analyse(
        self,
        limits: Union[Limit, SearchLimits] = SearchLimits(),
        *,
        multipv: Optional[int] = None,
        root_moves: Sequence[str] = (),
        timeout: Optional[float] = None,
    ) -> List[InfoReport]:
        """Search with ``limits`` (as for :meth:`go`) and return the lines of the deepest
        depth the search completed, best first: one :class:`InfoReport` per line (``score_cp``
        or ``score_mate``, ``pv``, ``depth``, ``nodes``, ``multipv``), like python-chess's
        ``analyse``. ``multipv`` K asks for K lines (the engine's ``MultiPV`` option, set
        when it differs from the last value this client set); a position with fewer legal
        moves gives fewer lines. An engine without MultiPV (every Hub engine: PROTOCOL.md
        10.10) raises :class:`ValueError` for K above 1, before anything is sent.
        ``root_moves`` (move texts) searches only those moves (``go ... searchmoves``).
        A weakened engine (``UCI_LimitStrength``) may play any of the lines, not line 1.
        """
        self._use_multipv(multipv)
        from protocol.client.analysis import lines_of
        seen: List[InfoReport] = []
        self.go(_with_root_moves(limits, root_moves), timeout=timeout, on_info=seen.append)
        return lines_of(seen)

    def analysis(
        self,
        limits: Union[Limit, SearchLimits, None] = None,
        *,
        multipv: Optional[int] = None,
        root_moves: Sequence[str] = (),
    ) -> "Analysis":
        """Start a search (``limits``; None: ``infinite``) and return an
        :class:`~protocol.client.analysis.Analysis`: iterate it for the ``info`` reports as
        they come, use it in ``with`` to stop the search when the block ends (python-chess's
        ``analysis``). ``multipv`` and ``root_moves`` as for :meth:`analyse`. The reports
        are every ``info`` line: lines of play, and also ``currmove`` reports and bounds
        (``report.is_line`` tells them apart; :attr:`Analysis.lines` keeps the lines)."""
        self._use_multipv(multipv)
        from protocol.client.analysis import Analysis
        analysis = Analysis(self)
        self.start_search(_with_root_moves(SearchLimits(infinite=True) if limits is None
                                           else limits, root_moves), on_info=analysis.add)
        return analysis

    def _use_multipv(self, lines: Optional[int]) -> None:
        """Have the engine search ``lines`` lines (None: leave it as it is)."""
        if lines is None:
            return
        if isinstance(lines, bool) or not isinstance(lines, int) or lines < 1:
            raise ValueError(f"multipv must be a whole number from 1, got {lines!r}")
        if lines > 1:
            raise ValueError(f"this engine reports one line, not multipv {lines}")

    def go_infinite(self, *, on_info: Optional[Callable[[InfoReport], None]] = None) -> None:
        """``go infinite``: the search runs until :meth:`stop`."""
        self.start_search(SearchLimits(infinite=True), on_info=on_info)

    def ponderhit(self) -> None:
        """``ponderhit``: the ponder search goes on as a normal search (see wait_bestmove)."""
        search = self._require_search()
        self.send_raw(self._PONDERHIT)
        search.limits = dataclasses.replace(search.limits, ponder=False)

    def stop(self, timeout: Optional[float] = None) -> GoResult:
        """``stop`` the running search and return its result (waits at most ``timeout``)."""
        _check_timeout(timeout)
        search = self._require_search()
        if search.result is None:
            self.send_raw("stop")
        return self._await_result(self._deadline(timeout))

    def wait_bestmove(self, timeout: Optional[float] = None) -> GoResult:
        """Wait for the running search's result (timeout as for :meth:`go`).

        A timeout leaves the search running in the client's view, so :meth:`stop` can follow.
        Raises :class:`CommandRejectedError` when the engine refused the search.
        """
        _check_timeout(timeout)
        search = self._require_search()
        if timeout is None:
            timeout = self.search_timeout_for(search.limits)
        return self._await_result(time.monotonic() + timeout)

    # ------------------------------------------------------------------ ending

    def quit(self) -> Optional[int]:
        """Send ``quit`` and reap the engine (quit, then terminate, then kill); idempotent.

        Returns the exit status (None for stream transports).
        """
        if self._closed:
            return self._returncode
        self._quitting = True
        try:
            self.send_raw("quit")
        except EngineError:
            pass
        self._closed = True
        self._search = None
        self._returncode = self._transport.close(self.quit_timeout)
        self._transcript.add("#", f"closed, exit status {self._returncode}")
        return self._returncode

    # ------------------------------------------------------------------ internals

    def _confirm(self, deadline: float) -> None:
        """Ask the engine to answer (``isready``, ``ping``) and read up to the answer."""
        raise NotImplementedError

    def _await_result(self, deadline: float) -> GoResult:
        """Read until the running search's result and return it."""
        raise NotImplementedError

    def _on_line(self, line: Optional[str]) -> None:
        if line is None:
            self._transcript.add("#", "end of engine output")
            self._inbox.put(None)
        else:
            self._transcript.add("<", line)
            self._inbox.put((line, time.monotonic()))

    def _on_stderr(self, line: str) -> None:
        self._transcript.add("!", line)

    def _deadline(self, timeout: Optional[float]) -> float:
        _check_timeout(timeout)
        return time.monotonic() + (self.timeout if timeout is None else timeout)

    def _exit_status(self) -> Optional[int]:
        """The exit status of an engine that closed a pipe, waiting up to EXIT_WAIT for it."""
        return self._transport.poll_exit(EXIT_WAIT)

    def _next_line(self, deadline: float, waiting_for: str) -> str:
        while not self._eof:
            if self._quitting:  # quit() from another thread: whatever was awaited is abandoned
                raise self._abandoned(f"while waiting for {waiting_for}")
            try:
                if deadline == math.inf:
                    item = self._inbox.get()
                else:
                    item = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineTimeoutError(
                    f"timed out waiting for {waiting_for}", self.transcript
                ) from None
            if item is None:
                self._eof = True
                break
            line, self._arrived = item
            if not self._SKIP_BLANK_LINES or line.strip():
                return line
        if self._quitting:  # the end of output that quit() asked for
            raise self._abandoned(f"while waiting for {waiting_for}")
        code = self._exit_status()
        raise EngineTerminatedError(
            f"the engine ended its output while waiting for {waiting_for}{_exit_note(code)}",
            self.transcript,
            code,
        )

    def _abandoned(self, context: str) -> ClientStateError:
        """The error of a wait that :meth:`quit` (from another thread) cut short."""
        return ClientStateError(f"quit() was called {context}", self.transcript)

    def _unexpected(self, line: str, context: str) -> None:
        if self._quitting:  # the line of a search that quit() abandoned, not the engine's fault
            raise self._abandoned(context)
        if self.strict:
            raise ProtocolError(f"unexpected line {line!r} {context}", self.transcript)

    def _add_info(self, search: Any, report: InfoReport) -> None:
        """Keep an ``info`` report for ``search`` and pass it to its ``on_info``.

        ``search`` is the one the caller read once: another thread may :meth:`quit` (and
        clear ``_search``) at any moment, and the report then goes to the abandoned search.
        """
        search.infos.add(report)
        if search.on_info is not None:
            search.on_info(report)

    def search_timeout_for(self, limits: SearchLimits) -> float:
        """Seconds the client waits for the result of a search under ``limits``: the move
        time or the larger clock (with its increment) plus ``go_margin``, or
        ``search_timeout`` for a search without a time limit."""
        budgets: List[float] = []
        if limits.movetime_ms is not None:
            budgets.append(limits.movetime_ms / 1000)
        if limits.has_clock:
            increment = max(limits.winc_ms or 0, limits.binc_ms or 0)
            budgets.append((max(limits.wtime_ms or 0, limits.btime_ms or 0) + increment) / 1000)
        return min(budgets) + self.go_margin if budgets else self.search_timeout

    def _require_idle(self) -> None:
        if self._search is not None:
            raise ClientStateError("a search is running: stop it first", self.transcript)

    def _require_search(self) -> Any:
        if self._search is None:
            raise ClientStateError("no search is running", self.transcript)
        return self._search

    def _command(self, line: str, timeout: Optional[float]) -> None:
        """Send a command that answers nothing on success, then confirm it (:meth:`_confirm`)."""
        self._require_idle()
        deadline = self._deadline(timeout)
        self.send_raw(line)
        self._confirm(deadline)


def _with_root_moves(limits: Union[Limit, SearchLimits], moves: Sequence[str]) -> SearchLimits:
    """``limits`` searching only the root moves ``moves`` (move texts; none: every move)."""
    limits = search_limits(limits)
    if not moves:
        return limits
    if isinstance(moves, str):
        raise ValueError("root_moves is a list of move texts, not one string")
    return dataclasses.replace(limits, searchmoves=tuple(moves))


def _check_timeout(timeout: Optional[float]) -> None:
    """A timeout is None (the default), a number of seconds >= 0, or ``inf`` (no limit)."""
    if timeout is not None and not timeout >= 0:  # (NaN compares false)
        raise ValueError(f"a timeout is a number of seconds >= 0 (or inf), got {timeout!r}")


def _exit_note(code: Optional[int]) -> str:
    """`` (exit status N)`` for an engine that has exited, else nothing."""
    return "" if code is None else f" (exit status {code})"
