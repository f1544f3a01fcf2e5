"""Who plays a side: a person or an engine process, and the engine driven through the client.

A :class:`PlayerSpec` is parsed from words such as ``human``, ``engine level=4`` or
``cmd:"./scan hub" proto=hub name=Scan`` (:meth:`PlayerSpec.parse`). An :class:`EnginePlayer`
runs one engine process through the reference clients only:
:class:`protocol.client.Engine` (PROTOCOL.md) or :class:`protocol.hub.client.HubEngine` (Hub v2,
``proto=hub``). It sends the whole game before each search (``position [fen F] moves ...``), so
undo, loading and new games need no bookkeeping in the engine, and it checks every move the
engine plays against the rules. Every engine problem becomes :class:`EngineFailure` (one line,
with the engine's last lines in ``transcript``); :meth:`EnginePlayer.close` always reaps the
process.
"""
from __future__ import annotations

import os
import shlex
import sys
import threading
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple

from draughts_engine.games import SMALL_GAME_NAMES
from draughts_engine.search.limits import InvalidLimitsError, SearchLimits
from protocol.client import (
    CommandRejectedError,
    Engine,
    EngineError,
    EngineTimeoutError,
    GoResult,
    InfoReport,
    ProcessTransport,
)

from .records import GameRecord, PlayError

__all__ = [
    "PlayerSpecError",
    "EngineFailure",
    "PlayerSpec",
    "EnginePlayer",
    "LEVELS",
    "OWN_ENGINE_COMMAND",
    "level_limits",
    "limits_text",
]

#: The strength levels: level N searches N plies deep (the seed programs' levels 1..12).
LEVELS = range(1, 13)

#: Our own engine: the text protocol server run by the same Python.
OWN_ENGINE_COMMAND: Tuple[str, ...] = (sys.executable, "-m", "protocol")

#: How long a search without a time limit may take before the engine counts as hung (seconds).
#: A person can always cut it short: "move now" stops the search and takes its best move.
UNTIMED_SEARCH_SECONDS = 6 * 3600.0

#: How long to wait for ``bestmove`` after ``stop`` (move now, or a search out of time) before
#: the engine counts as hung and its process is killed (seconds).
STOP_GRACE_SECONDS = 10.0

InfoCallback = Callable[[InfoReport], None]

#: How engine processes are started: in a session of their own where the platform has them.


class PlayerSpecError(PlayError):
    """Words that do not describe a player (bad kind, key or value)."""


class EngineFailure(PlayError):
    """An engine could not start, broke the protocol, hung, crashed or played an illegal move.

    ``side`` is the side it played (or None), ``transcript`` its last lines.
    """

    def __init__(self, message: str, side: Optional[str] = None,
                 transcript: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.side = side
        self.transcript: Tuple[str, ...] = tuple(transcript)


def level_limits(level: int) -> SearchLimits:
    """The limits of a level: ``depth`` = level (1..12). Raises :class:`PlayerSpecError`."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise PlayerSpecError(f"level must be {LEVELS[0]}..{LEVELS[-1]}, got {level!r}")
    return SearchLimits(depth=level)


def limits_text(limits: SearchLimits) -> str:
    """A short description: ``level 4``, ``500 ms a move``, ``depth 4, 500 ms``."""
    parts = []
    if limits.depth is not None:
        parts.append(f"level {limits.depth}" if limits.depth in LEVELS else f"depth {limits.depth}")
    if limits.movetime_ms is not None:
        parts.append(f"{limits.movetime_ms} ms a move")
    if limits.nodes is not None:
        parts.append(f"{limits.nodes} nodes")
    if limits.wtime_ms is not None:
        parts.append("on the clock")
    return ", ".join(parts) or "no limit"


def _positive_int(key: str, text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 9 or int(text) < 1:
        raise PlayerSpecError(f"{key} must be a positive whole number, got {text!r}")
    return int(text)


@dataclass(frozen=True)
class PlayerSpec:
    """A side's player: ``kind`` ``'human'`` or ``'engine'``.

    For an engine: ``command`` (argv), ``protocol`` ``'uci'`` (PROTOCOL.md) or ``'hub'``,
    ``builtin`` when it is our own engine, and ``limits`` when the player has its own
    (else the game's are used). ``name`` is what the board and the PDN call the player.
    ``program`` is what a front end calls the engine itself, shown with its limits
    (``deep (level 3)``) from the start; without it the engine's ``id name`` is used, known
    once the engine has started. Words do not set ``program`` (:meth:`parse`). ``elo``
    weakens an engine that offers ``UCI_LimitStrength`` and ``UCI_Elo`` to that rating.
    """

    kind: str = "human"
    command: Tuple[str, ...] = ()
    protocol: str = "uci"
    name: Optional[str] = None
    limits: Optional[SearchLimits] = None
    builtin: bool = False
    program: Optional[str] = None
    elo: Optional[int] = None  # a weakened engine: UCI_LimitStrength and UCI_Elo, if offered
    options: Tuple[Tuple[str, str], ...] = ()  # option.NAME=VALUE: setoption at start (uci)

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @classmethod
    def human(cls, name: Optional[str] = None) -> "PlayerSpec":
        return cls("human", name=name)

    @classmethod
    def own_engine(cls, limits: Optional[SearchLimits] = None,
                   name: Optional[str] = None) -> "PlayerSpec":
        """Our engine (``python -m protocol`` with this interpreter)."""
        return cls("engine", OWN_ENGINE_COMMAND, "uci", name, limits, builtin=True)

    @classmethod
    def parse(cls, words: Sequence[str]) -> "PlayerSpec":
        """A player from words: ``human`` | ``engine`` | ``cmd:<command>``, then ``key=value``.

        Keys: ``proto=uci|hub``, ``name=<text>``, ``level=1..12`` or ``movetime=<ms>`` (engines
        only except ``name``; not both strengths, as in the web board's API). A single word with spaces is split like a shell would
        (``'engine level=3'``). Raises :class:`PlayerSpecError` with a one-line reason.
        """
        words = list(words)
        if len(words) == 1 and " " in words[0].strip() and not words[0].startswith("cmd:"):
            try:
                words = shlex.split(words[0])
            except ValueError as exc:
                raise PlayerSpecError(f"cannot read player {words[0]!r}: {exc}") from None
        if not words or not words[0].strip():
            raise PlayerSpecError("empty player: use human, engine or cmd:<command>")
        head, options = words[0].strip(), words[1:]
        if head == "human":
            kind, command, builtin = "human", (), False
        elif head == "engine":
            kind, command, builtin = "engine", OWN_ENGINE_COMMAND, True
        elif head.startswith("cmd:"):
            try:
                command = tuple(shlex.split(head[4:]))
            except ValueError as exc:
                raise PlayerSpecError(f"cannot read the command {head[4:]!r}: {exc}") from None
            if not command:
                raise PlayerSpecError("cmd: needs a command, e.g. cmd:\"python3 -m protocol\"")
            kind, builtin = "engine", False
        else:
            raise PlayerSpecError(f"unknown player {head!r}: use human, engine or cmd:<command>")
        protocol, name = "uci", None
        depth: Optional[int] = None
        movetime: Optional[int] = None
        elo: Optional[int] = None
        settings: List[Tuple[str, str]] = []
        for option in options:
            key, sep, value = option.partition("=")
            if not sep:
                raise PlayerSpecError(f"expected key=value after {head!r}, got {option!r}")
            if key == "name":
                name = value or None
                continue
            if kind == "human":
                raise PlayerSpecError(f"{key}= applies to engines, not to a human player")
            if key == "proto":
                if value not in ("uci", "hub"):
                    raise PlayerSpecError(f"proto must be uci or hub, got {value!r}")
                protocol = value
            elif key == "level":
                depth = _positive_int(key, value)
                if depth not in LEVELS:
                    raise PlayerSpecError(f"level must be {LEVELS[0]}..{LEVELS[-1]}, got {depth}")
            elif key == "movetime":
                movetime = _positive_int(key, value)
            elif key == "elo":
                elo = _positive_int(key, value)
            elif key.startswith("option.") and key[len("option."):].strip():
                if not value or not value.isprintable():
                    raise PlayerSpecError(f"{key}= needs a value (option.OwnBook=false)")
                settings.append((key[len("option."):], value))
            else:
                raise PlayerSpecError(f"unknown key {key!r} (known: proto, name, level, "
                                      f"movetime, elo, option.NAME)")
        if depth is not None and movetime is not None:
            raise PlayerSpecError("give level or movetime, not both")
        limits = None
        if depth is not None or movetime is not None:
            try:
                limits = SearchLimits(depth=depth, movetime_ms=movetime)
            except InvalidLimitsError as exc:
                raise PlayerSpecError(str(exc)) from None
        if settings and protocol == "hub":
            raise PlayerSpecError("option.NAME= is for engines of the text protocol (proto=uci)")
        return cls(kind, command, protocol, name, limits, builtin, elo=elo,
                   options=tuple(settings))

    def describe(self) -> str:
        """Words that :meth:`parse` reads back into this spec."""
        if self.is_human:
            head = ["human"]
        elif self.builtin:
            head = ["engine"]
        else:
            head = ["cmd:" + shlex.quote(shlex.join(self.command))]
        if self.protocol != "uci":
            head.append(f"proto={self.protocol}")
        if self.limits is not None and self.limits.depth is not None:
            head.append(f"level={self.limits.depth}")
        if self.limits is not None and self.limits.movetime_ms is not None:
            head.append(f"movetime={self.limits.movetime_ms}")
        if self.elo is not None:
            head.append(f"elo={self.elo}")
        head += [shlex.quote(f"option.{name}={value}") for name, value in self.options]
        if self.name:
            head.append(shlex.quote(f"name={self.name}"))
        return " ".join(head)


def _child_environment() -> dict:
    """The environment for our engine: this package's folder first on PYTHONPATH, so that
    ``python -m protocol`` finds the same code whatever the current directory."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    paths = [root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != root]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


@dataclass
class _Running:
    """The search an :class:`EnginePlayer` is waiting for (guarded by the player's lock).

    ``watchdog`` kills the engine when ``bestmove`` has not come :data:`STOP_GRACE_SECONDS`
    after ``stop``.
    """

    stop_sent: bool = False
    stop_wanted: bool = False
    watchdog: Optional[threading.Timer] = None


class EnginePlayer:
    """One engine process playing one side (see the module docstring).

    Only :meth:`stop` and :meth:`kill` may be called from another thread than the one that
    drives the player.
    """

    def __init__(self, spec: PlayerSpec, variant: str, side: Optional[str] = None,
                 log: Optional[Callable[[str], None]] = None) -> None:
        if spec.is_human:
            raise ValueError("a human player has no engine")
        self.spec = spec
        self.side = side
        self.variant = variant
        self._log = log
        self._engine: Optional[Engine] = None
        self._transport: Optional[ProcessTransport] = None
        self._lock = threading.RLock()  # re-entered by _failure() inside choose()
        self._running: Optional[_Running] = None
        self._stop_early = False
        self._kill_reason: Optional[str] = None  # why the process was killed (kill())

    # ---- life ------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        """True while the engine process runs (from :meth:`start` to :meth:`close`)."""
        return self._engine is not None

    @property
    def pid(self) -> Optional[int]:
        """The engine process's id while it runs, else None."""
        transport = self._transport
        return transport.process.pid if transport is not None else None

    @property
    def engine_name(self) -> str:
        """What messages call the engine: the player's ``name``, else its ``program``, else
        the engine's ``id name`` (known once started), else its command's program name."""
        if self.spec.name or self.spec.program:
            return self.spec.name or self.spec.program or ""
        if self._engine is not None and self._engine.id.get("name"):
            return self._engine.id["name"]
        return os.path.basename(self.spec.command[0]) if self.spec.command else "engine"

    def start(self) -> None:
        """Start the process, do the handshake and choose the variant; idempotent."""
        if self._engine is not None:
            return
        engine_class = Engine
        options = {"strict": False, "search_timeout": UNTIMED_SEARCH_SECONDS, "log": self._log}
        if self.spec.protocol == "hub":
            from protocol.hub.client import HubEngine
            engine_class = HubEngine  # type: ignore[assignment]
            if self.variant in SMALL_GAME_NAMES:
                raise EngineFailure(f"Hub engines play draughts only, not {self.variant}",
                                    self.side)
            options["variant"] = self.variant
        env = _child_environment() if self.spec.builtin else None
        try:
            # Its own session: Ctrl-C at the terminal reaches this program only, which turns it
            # into "move now" instead of killing the engine.
            transport = ProcessTransport.spawn(list(self.spec.command), env=env,
                                               own_session=True)
        except OSError as exc:
            raise EngineFailure(f"cannot run {shlex.join(self.spec.command)}: "
                                f"{exc.strerror or exc}", self.side) from None
        engine = engine_class(transport, **options)
        with self._lock:
            self._engine = engine
            self._transport = transport
            self._kill_reason = None
        try:
            engine.handshake()
        except EngineError as exc:
            self.close()
            raise EngineFailure(f"{shlex.join(self.spec.command)}: no handshake: {exc.message}",
                                self.side, exc.transcript) from None
        except BaseException:
            self.close()
            raise
        try:
            self._configure(self.variant)
        except BaseException:
            self.close()
            raise

    def _configure(self, variant: str) -> None:
        engine = self._engine
        assert engine is not None
        try:
            if self.spec.protocol == "hub" or engine.option("Variant") is not None:
                engine.set_option("Variant", variant)
            if self.spec.elo is not None and self.spec.protocol != "hub" and \
                    engine.option("UCI_Elo") is not None:
                if engine.option("UCI_LimitStrength") is not None:
                    engine.set_option("UCI_LimitStrength", True)
                engine.set_option("UCI_Elo", self.spec.elo)
            for name, value in self.spec.options:  # option.NAME=VALUE, as the user gave it
                engine.set_option(name, value)
            # else: an engine without a Variant option plays its one game; its moves are checked
            engine.new_game()
        except CommandRejectedError as exc:
            raise EngineFailure(f"{self.engine_name} cannot play {variant}: {exc.reason}",
                                self.side, exc.transcript) from None
        except EngineError as exc:
            raise EngineFailure(f"{self.engine_name}: {exc.message}", self.side,
                                exc.transcript) from None
        self.variant = variant

    def set_variant(self, variant: str) -> None:
        """Play ``variant`` from now on (a new game for the engine)."""
        if self._engine is None:
            self.variant = variant
            return
        self._configure(variant)

    def offer_option(self, name: str, value: object) -> bool:
        """Set the engine's option ``name`` if it offers one (started first); whether it did.
        Raises :class:`EngineFailure`."""
        self.start()
        engine = self._engine
        assert engine is not None
        if engine.option(name) is None:
            return False
        try:
            engine.set_option(name, value)
        except EngineError as exc:
            raise EngineFailure(f"{self.engine_name}: {exc.message}", self.side,
                                exc.transcript) from None
        return True

    def new_game(self) -> None:
        """Tell the engine a new game starts (it may clear what it learnt)."""
        if self._engine is None:
            return
        try:
            self._engine.new_game()
        except EngineError as exc:
            raise EngineFailure(f"{self.engine_name}: {exc.message}", self.side,
                                exc.transcript) from None

    def close(self) -> None:
        """Quit and reap the engine process (quit, terminate, kill); idempotent."""
        engine, self._engine = self._engine, None
        self._transport = None
        if engine is not None:
            engine.quit()

    def kill(self, reason: str = "was killed") -> None:
        """Kill the engine process now (no ``quit`` first) and reap it, for an engine that
        does not answer. A search waiting in :meth:`choose` raises :class:`EngineFailure`
        saying ``<engine name> <reason>``. Thread-safe; idempotent."""
        with self._lock:
            if self._transport is None:
                return
            if self._kill_reason is None:
                self._kill_reason = reason
        self._kill_process()

    def _kill_process(self) -> None:
        transport = self._transport
        if transport is not None:
            try:
                transport.process.kill()
            except OSError:
                pass  # already gone
        self.close()

    # ---- searching -------------------------------------------------------------------
    def choose(self, record: GameRecord, limits: SearchLimits,
               on_info: Optional[InfoCallback] = None) -> Tuple[str, Optional[InfoReport]]:
        """The engine's move in ``record``'s position under ``limits``: ``(text, last info)``.

        ``on_info`` sees each report while the engine searches (in this thread). The move is
        checked against the rules; its canonical text is returned, the record is unchanged.
        Raises :class:`EngineFailure`.
        """
        self.start()
        engine = self._engine
        assert engine is not None
        fen, moves = record.engine_position()
        try:
            engine.position(fen, moves)
        except EngineError as exc:
            raise self._failure(exc, "rejected the position") from None
        with self._lock:
            running = _Running(stop_wanted=self._stop_early)
            self._stop_early = False
            try:
                engine.start_search(limits, on_info=on_info)
            except EngineError as exc:
                raise self._failure(exc, "could not start a search") from None
            self._running = running
            if running.stop_wanted:
                self._send_stop(running)
        try:
            result = self._wait(engine, running)
        finally:
            with self._lock:
                self._running = None
                if running.watchdog is not None:
                    running.watchdog.cancel()
        if result.bestmove is None:
            raise EngineFailure(f"{self.engine_name} found no move in a position that has moves",
                                self.side, engine.transcript)
        try:
            move = record.parse_move(result.bestmove)
        except PlayError as exc:
            raise EngineFailure(f"{self.engine_name} played an illegal move {result.bestmove}: "
                                f"{exc}", self.side, engine.transcript) from None
        return record.move_text(move), result.last_info

    def _wait(self, engine: Engine, running: _Running) -> GoResult:
        try:
            return engine.wait_bestmove()
        except EngineTimeoutError:
            pass
        except CommandRejectedError as exc:
            raise self._failure(exc, "refused the search") from None
        except EngineError as exc:
            raise self._failure(exc, "failed while searching") from None
        try:  # out of time: ask for the best move so far
            return engine.stop(STOP_GRACE_SECONDS)
        except EngineTimeoutError as exc:
            self.kill(f"did not answer stop within {STOP_GRACE_SECONDS:g} s after its time "
                      f"ran out, and was killed")
            raise self._failure(exc, "did not answer in time") from None
        except EngineError as exc:
            raise self._failure(exc, "did not answer in time") from None

    def stop(self) -> None:
        """Make the running search end now with its best move so far ("move now").

        Thread-safe. When no search runs yet, the next one stops as soon as it starts.
        """
        with self._lock:
            running = self._running
            if running is None:
                self._stop_early = True
                return
            self._send_stop(running)

    def cancel_early_stop(self) -> None:
        """Forget a :meth:`stop` that arrived while no search was running."""
        with self._lock:
            self._stop_early = False

    def _send_stop(self, running: _Running) -> None:
        """Send ``stop`` once for ``running`` (caller holds the lock)."""
        if running.stop_sent or self._engine is None:
            return
        running.stop_sent = True
        grace = STOP_GRACE_SECONDS
        running.watchdog = threading.Timer(grace, self._stop_overdue, (running, grace))
        running.watchdog.daemon = True
        running.watchdog.start()
        try:
            self._engine.send_raw("stop")
        except EngineError:
            pass  # the waiting thread will see the engine's end

    def _stop_overdue(self, running: _Running, grace: float) -> None:
        """The watchdog: ``running`` still has no ``bestmove`` ``grace`` seconds after
        ``stop``, so the engine counts as hung and is killed."""
        with self._lock:
            if self._running is not running or self._kill_reason is not None:
                return  # it answered meanwhile, or was killed already
            self._kill_reason = f"ignored stop for {grace:g} s and was killed"
        self._kill_process()

    def _failure(self, exc: EngineError, doing: str) -> EngineFailure:
        """The failure for ``exc`` while ``doing`` something; for an engine :meth:`kill`
        ended, the reason it was killed (the client only knows that its wait was cut short)."""
        with self._lock:
            killed = self._kill_reason
        if killed is not None:
            return EngineFailure(f"{self.engine_name} {killed}", self.side, exc.transcript)
        reason = exc.message if not isinstance(exc, CommandRejectedError) else \
            f"error {exc.reason}"
        return EngineFailure(f"{self.engine_name} {doing}: {reason}", self.side, exc.transcript)
