"""The engines of a match: how each is described (:class:`EngineSpec`, from ``key=value``
tokens), started and configured (:func:`start_engine`), and kept by a worker
(:class:`EngineSlot`: started lazily, restarted after a crash).

An engine runs in its own session / process group, so a Ctrl-C meant for the runner does not
reach it in the middle of a game; when the slot lets the engine go, whatever is left of that
group (a process the engine started) is killed with it. However the runner ends, ``kill -9``
included, its engines end with it (``ProcessTransport.spawn`` hands each to the program's
guard, :mod:`protocol.client.children`). The slot also tells when the engine's own process has
ended (:meth:`EngineSlot.exit_status`), even while a process it started keeps its output open.
Its stderr is captured by the client: the last lines are shown when it fails to start or dies
(:func:`stderr_tail`).
"""

from __future__ import annotations

import os
import shlex
import subprocess
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from draughts_engine.variants import get_variant
from protocol.client import (CommandRejectedError, Engine, EngineError, EngineTimeoutError,
                             ProcessTransport)
from protocol.client.transcript import printable
from protocol.commands import DEFAULT_VARIANT
from protocol.match.clock import MAX_CLOCK_MS, TimeControl, parse_seconds
from protocol.match.errors import EngineStartError, MatchError, bounded_int, quoted

__all__ = ["EngineSpec", "ENGINE_KEYS", "parse_engine", "launch_engine", "start_engine",
           "EngineSlot", "stop_engine", "stderr_tail", "exited_note", "STDERR_LINES"]

ENGINE_KEYS = ("name", "cmd", "dir", "proto", "host", "port", "depth", "nodes", "movetime",
               "st", "tc")
PROTOCOLS = ("uci", "hub", "dxp")

DXP_MOVES = 75
"""The moves of a DXP game request made from ``movetime=`` (a game's usual length)."""
STDERR_LINES = 5
"""How many of an engine's last stderr lines a failure message shows."""


@dataclass
class EngineSpec:
    """How to start one engine and how it plays: its ``go`` limits and ``setoption`` values."""

    name: str
    command: List[str]
    cwd: Optional[str] = None
    proto: str = "uci"
    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[int] = None
    tc: Optional[TimeControl] = None
    options: List[Tuple[str, str]] = field(default_factory=list)
    host: Optional[str] = None
    port: Optional[int] = None

    @property
    def listening(self) -> bool:
        """A DXP engine that already listens (``host``/``port`` and no ``cmd``): one game at
        a time."""
        return self.proto == "dxp" and not self.command

    def where(self) -> str:
        """How the engine is reached, for the header line."""
        words = shlex.join(self.command) if self.command else ""
        if self.proto == "dxp" and self.port is not None:
            words = (words + " " if words else "") + f"at {self.host or '127.0.0.1'}:{self.port}"
        return words

    def limits_text(self) -> str:
        """The limits as given on the command line: ``depth=4 tc=40/60+0.5``."""
        parts = [f"{key}={getattr(self, key)}" for key in ("depth", "nodes", "movetime")
                 if getattr(self, key) is not None]
        if self.tc is not None:
            parts.append(f"tc={self.tc}")
        return " ".join(parts)


def parse_engine(tokens: Sequence[str], each: Sequence[str] = (), number: int = 1) -> EngineSpec:
    """An :class:`EngineSpec` from ``key=value`` tokens (``each`` first, so ``tokens`` override).

    Keys: ``name``, ``cmd`` (split like a shell line), ``dir`` (an existing folder), ``proto``
    (``uci`` or ``hub``), ``depth``, ``nodes``, ``movetime`` (ms), ``st`` (seconds per move),
    ``tc``, ``option.Name``. Raises :class:`MatchError` naming the engine and the bad token.
    """
    values: Dict[str, str] = {}
    options: Dict[str, Tuple[str, str]] = {}
    own: Dict[str, str] = {}  # the keys of ``tokens`` (each may be given once)
    for position, token in enumerate(list(each) + list(tokens)):
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise MatchError(f"engine {number}: expected key=value, got {quoted(token)}")
        if position >= len(each):
            folded = key.casefold() if key.startswith("option.") else key
            if folded in own:
                raise MatchError(f"engine {number}: {quoted(key)} given twice "
                                 f"({quoted(own[folded])} and {quoted(token)})")
            own[folded] = token
        if key.startswith("option."):
            name = key[len("option."):]
            if not name:
                raise MatchError(f"engine {number}: option name missing in {quoted(token)}")
            options[name.casefold()] = (name, value)
        elif key in ENGINE_KEYS:
            values[key] = value
        else:
            raise MatchError(f"engine {number}: unknown key {quoted(key)} (known: "
                             f"{', '.join(ENGINE_KEYS)}, option.<Name>)")
    proto = values.get("proto", "uci").lower()
    port: Optional[int] = None
    if "port" in values:
        port = bounded_int(values["port"], f"engine {number}: port", 1, 65535)
    if not values.get("cmd", "").strip() and not (proto == "dxp" and port is not None):
        raise MatchError(f"engine {number}: cmd=... is required"
                         + (" (or host= and port= of a DXP engine that listens)"
                            if proto == "dxp" else ""))
    try:
        command = shlex.split(values.get("cmd", ""))
    except ValueError as exc:
        raise MatchError(f"engine {number}: bad cmd {quoted(values['cmd'])}: {exc}") from None
    default_name = (os.path.basename(command[0]) if command
                    else f"dxp-{values.get('host', '127.0.0.1')}-{port}")
    name = values.get("name") or default_name
    if proto not in PROTOCOLS:
        raise MatchError(f"engine {name}: proto must be uci, hub or dxp, got {quoted(proto)}")
    if proto != "dxp" and ("host" in values or "port" in values):
        raise MatchError(f"engine {name}: host= and port= are for proto=dxp")
    if proto == "dxp" and options:
        raise MatchError(f"engine {name}: a DXP engine takes no option.NAME (DXP has none)")
    cwd = values.get("dir") or None
    if cwd is not None and not os.path.isdir(cwd):
        raise MatchError(f"engine {name}: dir={cwd}: no such folder")
    spec = EngineSpec(name=name, command=command, cwd=cwd, proto=proto,
                      options=list(options.values()), host=values.get("host") or None,
                      port=port)
    for key, low, high in (("depth", 1, 99), ("nodes", 1, 2 ** 63 - 1),
                           ("movetime", 1, MAX_CLOCK_MS)):
        if key in values:
            setattr(spec, key, bounded_int(values[key], f"engine {name}: {key}", low, high))
    if "st" in values:
        if spec.movetime is not None:
            raise MatchError(f"engine {name}: give movetime= or st=, not both")
        spec.movetime = max(1, parse_seconds(values["st"], f"engine {name}: st"))
    if "tc" in values:
        try:
            spec.tc = TimeControl.parse(values["tc"])
        except MatchError as exc:
            raise MatchError(f"engine {name}: {exc}") from None
    if spec.depth is None and spec.nodes is None and spec.movetime is None and spec.tc is None:
        raise MatchError(f"engine {name}: no limit: give depth=, nodes=, movetime=, st= or tc=")
    return spec


def _engine_class(spec: EngineSpec) -> Any:
    if spec.proto == "uci":
        return Engine
    try:
        from protocol.hub.client import HubEngine  # lazily: only Hub engines need it
    except ImportError as exc:
        raise MatchError(f"engine {spec.name}: proto=hub needs protocol.hub.client.HubEngine, "
                         f"which cannot be imported ({exc})") from None
    return HubEngine


def stderr_tail(engine: Any, lines: int = STDERR_LINES) -> Tuple[str, ...]:
    """The last ``lines`` non-blank lines the engine wrote to stderr (after it was reaped, all
    of them have been read), control characters escaped (:func:`printable`: an engine's
    terminal escapes reach neither the runner's terminal nor the PDN comment)."""
    try:
        captured = engine.stderr_lines  # a property of the client's engines
    except (AttributeError, EngineError):
        return ()
    return tuple(printable(line.rstrip()) for line in captured if line.strip())[-lines:]


def exited_note(code: int) -> str:
    """Why an engine whose output is still open is taken for ended."""
    return (f"the engine exited (exit status {code}), though a process it started still "
            f"holds its output")


def _exit_status(process: "Optional[subprocess.Popen[bytes]]") -> Optional[int]:
    return process.poll() if process is not None else None


def stop_engine(engine: Any) -> None:
    """Quit the engine (quit, then terminate, then kill). Its transport kills what is left of
    its process group once it is reaped (``own_session``), also when the engine had already
    ended while a process it started kept its pipes open."""
    engine.quit()


def _failed(engine: Any, process: "Optional[subprocess.Popen[bytes]]", what: str,
            exc: EngineError, reason: str) -> EngineStartError:
    """The :class:`EngineStartError` of an engine that failed its handshake or setup (and is
    stopped here): an engine whose process has ended did not stall, even when a process it
    started keeps its output open."""
    stalled = isinstance(exc, EngineTimeoutError)
    code = _exit_status(process)
    if stalled and code is not None:
        stalled, reason = False, exited_note(code)
    stop_engine(engine)
    return EngineStartError(f"{what}: {reason}", stalled=stalled, stderr=stderr_tail(engine))


def launch_engine(spec: EngineSpec, variant: str,
                  timeout: float) -> "Tuple[Any, Optional[subprocess.Popen[bytes]]]":
    """Start, handshake and configure one engine (Variant, then the ``option.X`` values):
    ``(engine, its process)``. Stop it with :meth:`EngineSlot.discard` (or quit it and kill
    its group) so that nothing it started is left behind.

    Raises :class:`EngineStartError` with the reason and the last lines of the engine's
    stderr (when it wrote any).
    """
    if spec.proto == "dxp":
        return _launch_dxp(spec, variant, timeout)
    cls = _engine_class(spec)
    try:
        transport = ProcessTransport.spawn(spec.command, cwd=spec.cwd, own_session=True)
    except OSError as exc:
        if spec.cwd is not None and not os.path.isdir(spec.cwd):
            raise EngineStartError(f"dir={spec.cwd}: no such folder") from None
        raise EngineStartError(f"cannot run {shlex.join(spec.command)}: "
                               f"{exc.strerror or exc}") from None
    process = transport.process
    engine = cls(transport, strict=False, timeout=timeout, quit_timeout=1.0)
    try:
        engine.handshake()
    except EngineError as exc:
        raise _failed(engine, process, "no handshake", exc, exc.message) from None
    except BaseException:
        stop_engine(engine)
        raise
    try:
        if engine.option("Variant") is not None or spec.proto == "hub":
            engine.set_option("Variant", variant)  # HubEngine maps it (or refuses) itself
        elif get_variant(variant).name != DEFAULT_VARIANT:
            raise EngineStartError(f"the engine has no Variant option, so it cannot play {variant}")
        for name, value in spec.options:
            engine.set_option(name, value)
    except EngineError as exc:
        reason = exc.reason if isinstance(exc, CommandRejectedError) else exc.message
        raise _failed(engine, process, "setup failed", exc, reason) from None
    except BaseException:
        stop_engine(engine)
        raise
    return engine, process


def dxp_time(spec: EngineSpec) -> Tuple[int, int]:
    """The thinking time a DXP game request carries for ``spec``: ``(minutes, moves)`` of its
    ``tc=`` (minutes rounded up); for ``movetime=`` alone, :data:`DXP_MOVES` moves in the
    minutes they take at that time each; ``(0, 0)`` without either (the engine's own setting).

    >>> dxp_time(parse_engine(["port=1", "proto=dxp", "tc=40/90+1"]))
    (2, 40)
    >>> dxp_time(parse_engine(["port=1", "proto=dxp", "movetime=2000"]))
    (3, 75)
    """
    if spec.tc is not None:
        minutes = max(1, min(999, -(-int(spec.tc.base_ms) // 60000)))
        return minutes, min(999, spec.tc.moves or 0)
    if spec.movetime is not None:
        return max(1, min(999, -(-spec.movetime * DXP_MOVES // 60000))), DXP_MOVES
    return 0, 0


def _launch_dxp(spec: EngineSpec, variant: str,
                timeout: float) -> "Tuple[Any, Optional[subprocess.Popen[bytes]]]":
    from protocol.dxp.initiator import DxpEngine  # lazily: only DXP engines need it
    minutes, moves = dxp_time(spec)
    try:
        engine = DxpEngine.start(variant, spec.host, spec.port, spec.command, spec.cwd,
                                 minutes, moves, timeout)
    except OSError as exc:
        raise EngineStartError(f"cannot run {shlex.join(spec.command)}: "
                               f"{exc.strerror or exc}") from None
    except EngineError as exc:
        raise EngineStartError(exc.message,
                               stalled=isinstance(exc, EngineTimeoutError)) from None
    return engine, engine.process


def start_engine(spec: EngineSpec, variant: str, timeout: float) -> Any:
    """:func:`launch_engine` without the process: the engine alone (its ``quit`` also kills
    what it may leave behind)."""
    return launch_engine(spec, variant, timeout)[0]


class EngineSlot:
    """One engine process for one spec, owned by one worker; started lazily, restarted after a
    crash, a hang or a protocol failure."""

    def __init__(self, spec: EngineSpec, variant: str, start_timeout: float) -> None:
        self.spec = spec
        self.variant = variant
        self.start_timeout = start_timeout
        self.engine: Any = None
        self.process: "Optional[subprocess.Popen[bytes]]" = None
        self.starts = 0

    def get(self) -> Any:
        """The running engine, started (and configured) if there is none."""
        if self.engine is None:
            self.starts += 1
            self.engine, self.process = launch_engine(self.spec, self.variant,
                                                      self.start_timeout)
        return self.engine

    def exit_status(self) -> Optional[int]:
        """The exit status of the engine's process if it has ended, else None (also when no
        engine runs). True even while a process it started still holds its output open, when
        the client sees no end of output."""
        return _exit_status(self.process)

    def discard(self, quick: bool = True) -> None:
        """Stop the engine (quit, then terminate, then kill; what is left of its process group
        with it); the next :meth:`get` starts one."""
        engine, self.engine = self.engine, None
        self.process = None
        if engine is not None:
            if quick:
                engine.quit_timeout = 0.3
            try:
                stop_engine(engine)
            except Exception:  # noqa: BLE001 - best effort: the process is being dropped
                pass

    def close(self) -> None:
        self.discard(quick=False)
