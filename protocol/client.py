"""Reference client: drive any engine that speaks the protocol of PROTOCOL.md.

Layers, lowest first:

* pure functions that parse one engine output line into a typed value:
  :func:`parse_info`, :func:`parse_bestmove`, :func:`parse_option`, :func:`parse_id`;
* a :class:`Transport` that carries lines (a subprocess, a pair of streams, or a scripted fake
  in tests) and feeds what the engine writes into a queue from background threads;
* :class:`Engine`, the synchronous API: handshake, options, positions, searches, raw lines.

Every wait has a timeout. Failures are :class:`EngineError` subclasses that carry the last
lines of the transcript (``> sent``, ``< received``, ``! stderr``, ``# event``)::

    with Engine.popen(["python3", "-m", "protocol"]) as engine:
        engine.set_option("Variant", "russian")
        engine.position(moves=["c3-d4"])
        result = engine.go(SearchLimits(depth=4))
        print(result.bestmove, result.last_info)

Leaving the ``with`` block always reaps the process: ``quit``, then terminate, then kill.
"""

from __future__ import annotations

import abc
import collections
import dataclasses
import io
import queue
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import (
    IO,
    Any,
    Callable,
    Deque,
    Dict,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    TypeVar,
    Union,
)

from draughts_engine.search.limits import SearchLimits
from protocol.commands import (
    GoLimits,
    Move,
    Position,
    SetOption,
    Undo,
    go_tokens,
    is_move_token,
    token_spans,
    tokenize,
)

__all__ = [
    "EngineError",
    "EngineTimeoutError",
    "EngineTerminatedError",
    "ProtocolError",
    "CommandRejectedError",
    "ClientStateError",
    "InfoReport",
    "BestMove",
    "OptionSpec",
    "GoResult",
    "parse_info",
    "parse_bestmove",
    "parse_option",
    "parse_id",
    "Transcript",
    "Transport",
    "StreamTransport",
    "ProcessTransport",
    "EngineConnection",
    "Engine",
    "SearchLimits",
    "GoLimits",
]

OPTION_TYPES = frozenset({"spin", "check", "combo", "string", "button"})
_MAX_ENGINE_LINE = 1 << 20  # a longer engine line arrives in pieces (and is then garbage)


# --------------------------------------------------------------------------- errors


class EngineError(Exception):
    """Base of the client's errors. ``transcript`` holds the last lines exchanged."""

    def __init__(self, message: str, transcript: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.transcript: Tuple[str, ...] = tuple(transcript)

    def __str__(self) -> str:
        if not self.transcript:
            return self.message
        return self.message + "\nlast lines:\n" + "\n".join("  " + t for t in self.transcript)


class EngineTimeoutError(EngineError):
    """The engine did not answer in time (it may still be running)."""


class EngineTerminatedError(EngineError):
    """The engine closed its output or input (usually: the process ended)."""

    def __init__(
        self, message: str, transcript: Sequence[str] = (), returncode: Optional[int] = None
    ) -> None:
        super().__init__(message, transcript)
        self.returncode = returncode


class ProtocolError(EngineError):
    """The engine wrote a line that breaks the protocol (malformed, or unexpected here)."""


class CommandRejectedError(EngineError):
    """The engine answered ``error <reason>``; ``reason`` is the text after ``error ``."""

    def __init__(self, reason: str, transcript: Sequence[str] = ()) -> None:
        super().__init__(f"engine answered: error {reason}", transcript)
        self.reason = reason


class ClientStateError(EngineError):
    """The call does not fit the client's state (a search is running, none is, or closed)."""


# --------------------------------------------------------------------------- engine output lines


@dataclass(frozen=True)
class InfoReport:
    """One ``info`` line. Fields the line does not carry are None (``pv`` is then empty)."""

    depth: Optional[int] = None
    seldepth: Optional[int] = None
    score_cp: Optional[int] = None
    score_mate: Optional[int] = None
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time_ms: Optional[int] = None
    hashfull: Optional[int] = None
    pv: Tuple[str, ...] = ()
    string: Optional[str] = None


@dataclass(frozen=True)
class BestMove:
    """A ``bestmove`` line; ``move`` is None for ``bestmove (none)``."""

    move: Optional[str]
    ponder: Optional[str] = None


@dataclass(frozen=True)
class OptionSpec:
    """One ``option`` line of the ``uci`` reply."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    vars: Tuple[str, ...] = ()


@dataclass(frozen=True)
class GoResult:
    """The outcome of one search: ``bestmove`` None means the side to move had no move."""

    bestmove: Optional[str]
    ponder: Optional[str]
    infos: Tuple[InfoReport, ...] = ()

    @property
    def last_info(self) -> Optional[InfoReport]:
        """The last ``info`` line with a depth (the final iteration), if any."""
        return next((info for info in reversed(self.infos) if info.depth is not None), None)


_INFO_INTS: Mapping[str, str] = {
    "depth": "depth",
    "seldepth": "seldepth",
    "nodes": "nodes",
    "nps": "nps",
    "time": "time_ms",
    "hashfull": "hashfull",
}


def _to_int(token: Optional[str], what: str, line: str, signed: bool = False) -> int:
    digits = token[1:] if signed and token is not None and token.startswith("-") else token
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 30:
        raise ProtocolError(f"{what} needs an integer, got {token!r} in {line!r}")
    return int(token)  # type: ignore[arg-type]


def parse_info(line: str) -> InfoReport:
    """Parse an ``info`` line (PROTOCOL.md, ``go``) into an :class:`InfoReport`.

    ``pv`` and ``string`` take the rest of the line (``string`` verbatim). Unknown tokens are
    skipped, so engines may add fields. Raises :class:`ProtocolError` for a line that is not
    ``info``, a known field given twice or with a malformed value.

    >>> parse_info("info depth 3 score mate -2 nodes 91 pv 11-15 23-19")
    InfoReport(depth=3, seldepth=None, score_cp=None, score_mate=-2, nodes=91, nps=None, \
time_ms=None, hashfull=None, pv=('11-15', '23-19'), string=None)
    """
    spans = token_spans(line)
    if not spans or spans[0][0] != "info":
        raise ProtocolError(f"not an info line: {line!r}")
    values: Dict[str, Any] = {}
    index = 1
    while index < len(spans):
        token = spans[index][0]
        if token == "string":
            values["string"] = line[spans[index + 1][1] :] if index + 1 < len(spans) else ""
            break
        if token == "pv":
            values["pv"] = tuple(t for t, _, _ in spans[index + 1 :])
            break
        nxt = spans[index + 1][0] if index + 1 < len(spans) else None
        if token == "score":
            if "score" in values:
                raise ProtocolError(f"score given twice in {line!r}")
            if nxt not in ("cp", "mate"):
                raise ProtocolError(f"score needs cp or mate, got {nxt!r} in {line!r}")
            score_token = spans[index + 2][0] if index + 2 < len(spans) else None
            values["score"] = True
            values["score_" + nxt] = _to_int(score_token, "score " + nxt, line, signed=True)
            index += 3
        elif token in _INFO_INTS:
            name = _INFO_INTS[token]
            if name in values:
                raise ProtocolError(f"{token} given twice in {line!r}")
            values[name] = _to_int(nxt, token, line)
            index += 2
        else:
            index += 1
    values.pop("score", None)
    return InfoReport(**values)


def parse_bestmove(line: str) -> BestMove:
    """Parse ``bestmove <m> [ponder <m>]`` or ``bestmove (none)``; else :class:`ProtocolError`.

    >>> parse_bestmove("bestmove 15x24x31 ponder 28x19")
    BestMove(move='15x24x31', ponder='28x19')
    """
    tokens = tokenize(line)
    if len(tokens) not in (2, 4) or tokens[0] != "bestmove":
        raise ProtocolError(f"malformed bestmove line: {line!r}")
    move: Optional[str] = None if tokens[1] == "(none)" else tokens[1]
    if move is not None and not is_move_token(move):
        raise ProtocolError(f"malformed best move in {line!r}")
    if len(tokens) == 2:
        return BestMove(move)
    if move is None or tokens[2] != "ponder" or not is_move_token(tokens[3]):
        raise ProtocolError(f"malformed bestmove line: {line!r}")
    return BestMove(move, tokens[3])


def _join(spans: Sequence[Tuple[str, int, int]]) -> str:
    return " ".join(token for token, _, _ in spans)


def parse_option(line: str) -> OptionSpec:
    """Parse ``option name <N> type <t> [default <v>] [min <a> max <b>] [var <v>]...``.

    Names, defaults and vars may span several tokens. Raises :class:`ProtocolError`.

    >>> parse_option("option name Hash type spin default 16 min 1 max 1024")
    OptionSpec(name='Hash', type='spin', default='16', min=1, max=1024, vars=())
    """
    spans = token_spans(line)
    words = [token for token, _, _ in spans]
    if len(words) < 5 or words[0] != "option" or words[1] != "name" or "type" not in words:
        raise ProtocolError(f"malformed option line: {line!r}")
    type_at = words.index("type")
    if type_at == 2 or type_at + 1 >= len(words) or words[type_at + 1] not in OPTION_TYPES:
        raise ProtocolError(f"malformed option line: {line!r}")
    fields: Dict[str, Any] = {"name": _join(spans[2:type_at]), "type": words[type_at + 1]}
    vars_: List[str] = []
    keywords = ("default", "min", "max", "var")
    index = type_at + 2
    while index < len(words):
        keyword = words[index]
        if keyword not in keywords:
            raise ProtocolError(f"unexpected {keyword!r} in option line {line!r}")
        end = index + 1
        while end < len(words) and words[end] not in keywords:
            end += 1
        value = _join(spans[index + 1 : end])
        if keyword == "var":
            vars_.append(value)
        elif keyword in fields:
            raise ProtocolError(f"{keyword} given twice in {line!r}")
        elif keyword == "default":
            fields["default"] = value
        else:
            fields[keyword] = _to_int(value, keyword, line, signed=True)
        index = end
    return OptionSpec(vars=tuple(vars_), **fields)


def parse_id(line: str) -> Tuple[str, str]:
    """Parse ``id <key> <value...>`` into ``(key, value)``; the value is taken verbatim."""
    spans = token_spans(line)
    if len(spans) < 2 or spans[0][0] != "id":
        raise ProtocolError(f"malformed id line: {line!r}")
    value = line[spans[2][1] : spans[-1][2]] if len(spans) > 2 else ""
    return spans[1][0], value


def _first_word(line: str) -> str:
    spans = token_spans(line)
    return spans[0][0] if spans else ""


def _error_reason(line: str) -> str:
    spans = token_spans(line)
    return line[spans[1][1] : spans[-1][2]] if len(spans) > 1 else ""


# --------------------------------------------------------------------------- transcript


LogTarget = Union[Callable[[str], None], IO[str], None]


class Transcript:
    """The recent traffic with one engine, newest last, safe to use from several threads.

    Entries read ``> sent``, ``< received``, ``! stderr`` and ``# event``. Every entry also
    goes to ``log`` (a callable taking a line, or a text file) when given.
    """

    def __init__(self, keep: int = 40, log: LogTarget = None) -> None:
        self._lock = threading.Lock()
        self._entries: Deque[str] = collections.deque(maxlen=keep)
        self._stderr: Deque[str] = collections.deque(maxlen=keep)
        self._log = log

    def add(self, marker: str, text: str) -> None:
        entry = f"{marker} {text}"
        with self._lock:
            self._entries.append(entry)
            if marker == "!":
                self._stderr.append(text)
            if self._log is None:
                return
            if callable(self._log):
                self._log(entry)
            else:
                self._log.write(entry + "\n")
                self._log.flush()

    def lines(self) -> Tuple[str, ...]:
        with self._lock:
            return tuple(self._entries)

    def stderr_lines(self) -> Tuple[str, ...]:
        with self._lock:
            return tuple(self._stderr)


# --------------------------------------------------------------------------- transports

LineSink = Callable[[Optional[str]], None]
"""Receives each engine output line without its line end; None once, at end of output."""


class Transport(abc.ABC):
    """Carries lines to and from one engine; see :class:`StreamTransport` for the usual one."""

    @abc.abstractmethod
    def start(self, on_line: LineSink, on_stderr: Callable[[str], None]) -> None:
        """Begin delivering output lines (from another thread is fine); called once."""

    @abc.abstractmethod
    def write(self, data: bytes) -> None:
        """Send bytes to the engine and flush; raises OSError or ValueError once it is gone."""

    @abc.abstractmethod
    def close(self, timeout: float) -> Optional[int]:
        """Stop talking and release everything, waiting at most about 2*timeout; exit status."""

    def poll_exit(self, timeout: float) -> Optional[int]:
        """The exit status if the engine ends within ``timeout`` seconds, else None."""
        return None


def _pump(stream: IO[Any], deliver: Callable[[str], None], at_end: Callable[[], None]) -> None:
    """Read lines from ``stream`` until end of file or error; decode bytes as UTF-8 (replace)."""
    try:
        while True:
            raw = stream.readline(_MAX_ENGINE_LINE)
            if not raw:
                break
            text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
            if text.endswith("\n"):
                text = text[:-1]
            if text.endswith("\r"):
                text = text[:-1]
            deliver(text)
    except (OSError, ValueError):
        pass
    finally:
        at_end()


class StreamTransport(Transport):
    """Talks through given streams (binary or text): ``to_engine`` is the engine's input.

    Output lines are read on a daemon thread per stream, so nothing here ever busy-waits.
    """

    def __init__(
        self, to_engine: IO[Any], from_engine: IO[Any], stderr: Optional[IO[Any]] = None
    ) -> None:
        self._to_engine = to_engine
        self._from_engine = from_engine
        self._stderr = stderr
        self._threads: List[threading.Thread] = []
        self._write_lock = threading.Lock()

    def start(self, on_line: LineSink, on_stderr: Callable[[str], None]) -> None:
        readers: List[Tuple[IO[Any], Callable[[str], None], Callable[[], None], str]] = [
            (self._from_engine, on_line, lambda: on_line(None), "stdout")
        ]
        if self._stderr is not None:
            readers.append((self._stderr, on_stderr, lambda: None, "stderr"))
        for stream, deliver, at_end, name in readers:
            thread = threading.Thread(
                target=_pump, args=(stream, deliver, at_end), name=f"engine-{name}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def write(self, data: bytes) -> None:
        with self._write_lock:
            if isinstance(self._to_engine, io.TextIOBase):
                self._to_engine.write(data.decode("utf-8", "surrogateescape"))
            else:
                self._to_engine.write(data)
            self._to_engine.flush()

    def _close_input(self) -> None:
        try:
            self._to_engine.close()
        except (OSError, ValueError):
            pass

    def _join_readers(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self._threads)

    def close(self, timeout: float) -> Optional[int]:
        self._close_input()
        self._join_readers(timeout)
        return None


class ProcessTransport(StreamTransport):
    """A :class:`StreamTransport` over a subprocess's pipes that reaps the process on close."""

    def __init__(self, process: "subprocess.Popen[bytes]") -> None:
        assert process.stdin is not None and process.stdout is not None
        super().__init__(process.stdin, process.stdout, process.stderr)
        self.process = process

    @classmethod
    def spawn(cls, command: Sequence[str], **popen_kwargs: Any) -> "ProcessTransport":
        """Start ``command`` with piped stdin, stdout and stderr."""
        process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **popen_kwargs,
        )
        return cls(process)

    def poll_exit(self, timeout: float) -> Optional[int]:
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self._join_readers(timeout)  # let stderr reach the transcript
        return code

    def close(self, timeout: float) -> Optional[int]:
        """Close stdin; wait ``timeout``; terminate; wait ``timeout``; kill; then wait for it."""
        self._close_input()
        for escalate in (self.process.terminate, self.process.kill):
            try:
                self.process.wait(timeout)
                break
            except subprocess.TimeoutExpired:
                escalate()
        code = self.process.wait()
        if self._join_readers(timeout):
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
        return code


# --------------------------------------------------------------------------- engine

_C = TypeVar("_C", bound="EngineConnection")


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
        self.options: Dict[str, OptionSpec] = {}
        self._transport = transport
        self._transcript = Transcript(transcript_lines, log)
        self._inbox: "queue.Queue[Optional[str]]" = queue.Queue()
        self._eof = False
        self._closed = False
        self._returncode: Optional[int] = None
        self._search: Any = None
        transport.start(self._on_line, self._on_stderr)

    # ------------------------------------------------------------------ construction

    @classmethod
    def popen(
        cls: Type[_C],
        command: Sequence[str],
        *,
        cwd: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        handshake: bool = True,
        **options: Any,
    ) -> _C:
        """Start ``command`` and (by default) do the protocol's handshake.

        ``options`` are the keyword arguments of the class. If the handshake fails the
        process is reaped before the error propagates.
        """
        transport = ProcessTransport.spawn(command, cwd=cwd, env=env)
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
            raise EngineTerminatedError(
                f"cannot write to the engine: {exc}", self.transcript, self._exit_status()
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
        limits: SearchLimits = SearchLimits(),
        *,
        timeout: Optional[float] = None,
        on_info: Optional[Callable[[InfoReport], None]] = None,
    ) -> GoResult:
        """Search with ``limits`` and wait for the best move.

        ``timeout`` defaults to the time the limits allow plus ``go_margin`` (or
        ``search_timeout``). ``on_info`` sees each ``info`` report as it is read. For
        ``infinite`` and ``ponder`` use :meth:`start_search` and :meth:`stop`.
        """
        if limits.infinite or limits.ponder:
            raise ValueError("go(infinite/ponder) never ends by itself: use start_search()")
        self.start_search(limits, on_info=on_info)
        return self.wait_bestmove(timeout)

    def start_search(
        self, limits: SearchLimits = SearchLimits(), *, on_info: Optional[Callable[[InfoReport], None]] = None
    ) -> None:
        """Start a search and return at once; finish with :meth:`stop` or :meth:`wait_bestmove`."""
        raise NotImplementedError

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
        search = self._require_search()
        if search.result is None:
            self.send_raw("stop")
        return self._await_result(self._deadline(timeout))

    def wait_bestmove(self, timeout: Optional[float] = None) -> GoResult:
        """Wait for the running search's result (timeout as for :meth:`go`).

        A timeout leaves the search running in the client's view, so :meth:`stop` can follow.
        Raises :class:`CommandRejectedError` when the engine refused the search.
        """
        search = self._require_search()
        if timeout is None:
            timeout = self._search_budget(search.limits)
        return self._await_result(time.monotonic() + timeout)

    # ------------------------------------------------------------------ ending

    def quit(self) -> Optional[int]:
        """Send ``quit`` and reap the engine (quit, then terminate, then kill); idempotent.

        Returns the exit status (None for stream transports).
        """
        if self._closed:
            return self._returncode
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
        else:
            self._transcript.add("<", line)
        self._inbox.put(line)

    def _on_stderr(self, line: str) -> None:
        self._transcript.add("!", line)

    def _deadline(self, timeout: Optional[float]) -> float:
        return time.monotonic() + (self.timeout if timeout is None else timeout)

    def _exit_status(self) -> Optional[int]:
        return self._transport.poll_exit(0.5)

    def _next_line(self, deadline: float, waiting_for: str) -> str:
        while not self._eof:
            try:
                line = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineTimeoutError(
                    f"timed out waiting for {waiting_for}", self.transcript
                ) from None
            if line is None:
                self._eof = True
                break
            if not self._SKIP_BLANK_LINES or line.strip():
                return line
        code = self._exit_status()
        status = "" if code is None else f" (exit status {code})"
        raise EngineTerminatedError(
            f"the engine ended its output while waiting for {waiting_for}{status}",
            self.transcript,
            code,
        )

    def _unexpected(self, line: str, context: str) -> None:
        if self.strict:
            raise ProtocolError(f"unexpected line {line!r} {context}", self.transcript)

    def _add_info(self, report: InfoReport) -> None:
        """Keep an ``info`` report for the running search and pass it to its ``on_info``."""
        search = self._search
        search.infos.append(report)
        if search.on_info is not None:
            search.on_info(report)

    def _search_budget(self, limits: SearchLimits) -> float:
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


@dataclass
class _Search:
    """The client's view of a running search."""

    limits: SearchLimits
    on_info: Optional[Callable[[InfoReport], None]]
    infos: List[InfoReport]
    result: Optional[BestMove] = None


class Engine(EngineConnection):
    """A synchronous connection to one engine (see the module docstring).

    Timeouts (seconds): ``timeout`` for the handshake, ``isready`` and commands; ``go`` waits
    for its time limit plus ``go_margin`` (or ``search_timeout`` when the limits carry no time);
    ``quit_timeout`` is how long to wait at each step of the quit/terminate/kill ladder. With
    ``strict`` (default) an unexpected line raises :class:`ProtocolError`; otherwise it is only
    recorded in the transcript. ``info string`` lines are always accepted and ignored.
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
        options: Dict[str, OptionSpec] = {}
        while True:
            line = self._next_line(deadline, "uciok")
            word = _first_word(line)
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

    def option(self, name: str) -> Optional[OptionSpec]:
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

    def new_game(self, timeout: Optional[float] = None) -> None:
        """``ucinewgame``, checked by ``isready``."""
        self._command("ucinewgame", timeout)

    def position(
        self, fen: Optional[str] = None, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> None:
        """``position startpos|fen <fen> [moves ...]``, checked by ``isready``."""
        self._command(Position(fen, tuple(moves)).to_line(), timeout)

    def play(self, moves: Sequence[str], timeout: Optional[float] = None) -> None:
        """``move m1 m2 ...`` on the current position, checked by ``isready``."""
        self._command(Move(tuple(moves)).to_line(), timeout)

    def undo(self, count: int = 1, timeout: Optional[float] = None) -> None:
        """``undo [N]``, checked by ``isready``."""
        self._command(Undo(count).to_line(), timeout)

    # ------------------------------------------------------------------ searching

    def start_search(
        self, limits: SearchLimits = SearchLimits(), *, on_info: Optional[Callable[[InfoReport], None]] = None
    ) -> None:
        """Send ``go <limits>`` and return at once; finish with :meth:`stop` or
        :meth:`wait_bestmove`."""
        self._require_idle()
        self.send_raw(" ".join(["go"] + go_tokens(limits)))
        self._search = _Search(limits, on_info, [])

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
        word = _first_word(line)
        if search is None or search.result is not None or word not in ("info", "bestmove"):
            return False
        if word == "bestmove":
            search.result = self._parsed(parse_bestmove, line)
            return True
        self._add_info(self._parsed(parse_info, line))
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
            if _first_word(line) == "error":
                rejected = rejected if rejected is not None else _error_reason(line)
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
            if _first_word(line) == "error":
                self._search = None
                raise CommandRejectedError(_error_reason(line), self.transcript)
            self._unexpected(line, "during a search")
        self._search = None
        return GoResult(search.result.move, search.result.ponder, tuple(search.infos))
