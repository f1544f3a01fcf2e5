"""The process harness: engine processes, the context a check works in, and the watchdog.

* :func:`probe_command` tells a command that cannot be executed (exit status 2) from an engine
  that runs.
* :class:`EngineHandle` is one engine process plus the reference client
  (:class:`protocol.client.Engine`) talking to it; every read is bounded by a timeout.
* :class:`Context` is what a check works with: the shared engine, engines of its own, the rules;
  a :class:`Check` is a numbered function of a context with its time budget.
* :class:`Harness` runs one check at a time on its own thread under a time budget; when the
  budget runs out the engine is killed, which ends every wait of the check. The shared engine is
  reused while checks pass and restarted after a failure. A :class:`SetupError` (the engine
  cannot be started, handshaken or switched to the variant) is remembered in
  :attr:`Harness.setup_failure`: the runner stops there instead of failing every later check
  for the same reason.
"""

from __future__ import annotations

import collections
import os
import shlex
import signal
import subprocess
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Deque, Dict, List, Optional, Sequence, Tuple, Union

from draughts_engine import Position
from protocol.client import children

from .config import FAIL, PASS, SKIP, CheckResult, Config
from .errors import CheckFailed, CheckSkipped, EngineCommandError, SetupError, fail
from .latency import AnswerTimes
from .oracle import Rules
from .text import first_word, is_info_string
from .validators import (
    DISPLAY_KEYS,
    DisplayBlock,
    Handshake,
    compare_display,
    lenient_handshake,
    parse_display,
)
from .wire import (
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProcessTransport,
    SetOption,
)

__all__ = ["probe_command", "EngineHandle", "read_handshake", "Context", "Check", "Harness"]


def probe_command(command: Sequence[str]) -> None:
    """Start ``command`` once and kill it at once; raises :class:`EngineCommandError` when it
    cannot be executed at all (no such file, not executable, not a program).

    An engine that starts and then fails is not a usage error: the checks judge it.
    """
    if not command:
        raise EngineCommandError("no engine command")
    try:
        process = subprocess.Popen(list(command), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=os.name == "posix")
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise EngineCommandError(f"cannot start {shlex.join(command)}: {reason}") from None
    watched = children.watch(process.pid, group=os.name == "posix")  # however we end
    _kill_group(process)
    try:
        process.wait(5.0)
    except subprocess.TimeoutExpired:
        return
    if watched:
        children.release(process.pid)


def _kill_group(process: "subprocess.Popen[bytes]") -> None:
    """SIGKILL the process group (POSIX) or the process, at once; errors are ignored."""
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
            return
        except OSError:
            pass
    try:
        process.kill()
    except OSError:
        pass


class EngineHandle:
    """One engine process and the reference client talking to it.

    Every read is bounded by a timeout (default ``Config.timeout``). :meth:`kill` ends the
    process (its whole process group on POSIX) at once, from any thread.
    """

    def __init__(self, command: Sequence[str], config: Config, log: Callable[[str], None]) -> None:
        try:
            self.transport = ProcessTransport.spawn(command, own_session=True)
        except (OSError, ValueError) as exc:
            raise SetupError(f"cannot start {shlex.join(command)}: {exc}") from None
        self.client = Engine(self.transport, log=log, timeout=config.timeout, quit_timeout=0.5,
                             transcript_lines=60)
        self.timeout = config.timeout

    @property
    def process(self) -> "subprocess.Popen[bytes]":
        """The engine process."""
        return self.transport.process

    def send(self, line: Union[str, bytes]) -> None:
        """Send a line (LF added) or raw bytes."""
        self.client.send_raw(line)

    def read(self, timeout: Optional[float] = None) -> str:
        """The next line, ``info string`` lines skipped; raises EngineTimeoutError/Terminated."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            line = self.client.read_line(max(0.0, deadline - time.monotonic()))
            if not is_info_string(line):
                return line

    def sync(self, timeout: Optional[float] = None) -> List[str]:
        """Send ``isready``; the lines before ``readyok`` (without ``info string`` lines)."""
        return [line for line in self.client.sync(timeout) if not is_info_string(line)]

    def drain(self, seconds: float) -> List[str]:
        """Every line that arrives within ``seconds`` (no ``info string``); stops at end of
        output."""
        deadline = time.monotonic() + seconds
        lines: List[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return lines
            try:
                lines.append(self.read(remaining))
            except (EngineTimeoutError, EngineTerminatedError):
                return lines

    def close_input(self) -> None:
        """Close the engine's stdin (end of input)."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except (OSError, ValueError):
            pass

    def wait_exit(self, timeout: float) -> Optional[int]:
        """The exit status if the process ends within ``timeout`` seconds, else None."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def ended(self, error: EngineError) -> str:
        """What ``error`` (the engine closed its pipes) means, with the exit status when the
        process has ended within two seconds (a write that hits a closed pipe says less)."""
        code = self.wait_exit(2.0)
        if isinstance(error, EngineTerminatedError) and code is not None:
            return f"the engine exited (exit status {code})"
        return error.message

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the process group (POSIX) or the process, at once."""
        _kill_group(self.process)

    def close(self, gently: bool) -> None:
        """End the engine: ``quit`` first when ``gently``, else kill; always reaps it."""
        if not gently:
            self.kill()
        self.client.quit()  # the transport also ends what is left of the group (own_session)


def read_handshake(handle: EngineHandle, timeout: float) -> List[str]:
    """Send ``uci`` and return the reply up to and including ``uciok`` (no ``info string``)."""
    deadline = time.monotonic() + timeout
    handle.send("uci")
    lines: List[str] = []
    while not lines or lines[-1] != "uciok":
        if len(lines) > 1000:
            raise fail("more than 1000 lines in the uci reply")
        try:
            lines.append(handle.read(max(0.0, deadline - time.monotonic())))
        except EngineTimeoutError:
            raise fail(f"no uciok within {timeout:.1f} s (got {len(lines)} lines)") from None
    return lines


class Context:
    """What a check works with: the shared engine, extra engines it starts, the rules.

    ``dirty`` (set by a check that changes options) makes the harness restart the shared
    engine afterwards.
    """

    def __init__(self, harness: "Harness") -> None:
        self.harness = harness
        self.config = harness.config
        self.rules = harness.rules
        self.dirty = False
        self.cancelled = False
        self.spawned: List[EngineHandle] = []

    def _check_cancelled(self) -> None:
        if self.cancelled:
            raise fail("the check was cancelled (budget exceeded)")

    def engine(self) -> EngineHandle:
        """The shared engine: handshaken, switched to the variant, idle."""
        self._check_cancelled()
        return self.harness.shared_engine()

    def spawn(self, handshake: bool = True) -> EngineHandle:
        """A new engine for this check only (closed after it); set up when ``handshake``."""
        self._check_cancelled()
        handle = self.harness.start_engine()
        self.spawned.append(handle)
        if handshake:
            self.harness.setup(handle)
        return handle

    def handshake(self) -> Handshake:
        """The shared engine's ``uci`` reply."""
        self.engine()
        assert self.harness.handshake is not None
        return self.harness.handshake

    # ---- optional commands -----------------------------------------------------------

    def offers(self, handle: EngineHandle, word: str) -> bool:
        """Whether the engine knows the debug command ``word`` (probed once per run)."""
        features = self.harness.features
        if word not in features:
            probe = {"d": "d", "perft": "perft 1", "eval": "eval"}[word]
            handle.send(probe)
            lines = handle.sync()
            features[word] = not (lines and lines[0].startswith(f"error unknown command: {word}"))
        return features[word]

    def require(self, handle: EngineHandle, word: str) -> None:
        """Raise :class:`CheckSkipped` unless the engine offers ``word``."""
        if not self.offers(handle, word):
            raise CheckSkipped(f"the engine does not offer '{word}' (error unknown command)")

    def display(self, handle: EngineHandle,
                next_line: Optional[Callable[[], str]] = None) -> DisplayBlock:
        """Send ``d`` and parse the block (SKIP when ``d`` is not offered)."""
        self.require(handle, "d")
        handle.send("d")
        reader = next_line or (lambda: handle.read())
        lines: List[str] = []
        limit = self.rules.geometry.size + len(DISPLAY_KEYS)
        while not lines or first_word(lines[-1]) not in ("state", "error"):
            if len(lines) >= limit:
                break
            lines.append(reader())
        if first_word(lines[-1]) == "error":
            raise fail(f"the engine answered {lines[-1]!r} to d")
        return parse_display(lines, self.rules.geometry.size)

    def verify(self, handle: EngineHandle, position: Position, ply: int,
               fen: Optional[str] = None, moves: Sequence[str] = ()) -> None:
        """``d`` must show ``position`` at ``ply`` with the state the rules give after
        ``position fen|startpos moves ...`` (``fen`` None is the start position)."""
        shown = self.display(handle)
        compare_display(shown, self.rules, position, ply, self.rules.state_line(fen, moves))


@dataclass(frozen=True)
class Check:
    """One numbered check. ``run`` returns the PASS reason or raises CheckFailed/CheckSkipped.

    Its time budget is ``budget_units`` times ``Config.timeout`` plus ``extra`` seconds, plus
    the time of ``Config.stop_samples`` stopped searches when ``per_sample``.
    """

    number: int
    name: str
    summary: str
    run: Callable[[Context], str]
    budget_units: float = 3.0
    extra: float = 2.0
    per_sample: bool = False

    def budget(self, config: Config) -> float:
        """Seconds this check may take before its engine is killed."""
        samples = config.stop_samples * (config.threshold + 0.6) if self.per_sample else 0.0
        return self.budget_units * config.timeout + self.extra + samples


class Harness:
    """Runs checks one by one; owns the shared engine and the per-check transcript.

    Contract: :meth:`run` returns within the check's budget plus a few seconds, whatever the
    engine does (a hung engine is killed); the shared engine is restarted after a failure.
    """

    def __init__(self, config: Config, rules: Rules, echo: Callable[[str], None]) -> None:
        self.config = config
        self.rules = rules
        self.features: Dict[str, bool] = {}
        self.handshake: Optional[Handshake] = None
        self._echo = echo
        self._shared: Optional[EngineHandle] = None
        self._setup_failure: Optional[str] = None
        self._log: Deque[str] = collections.deque(maxlen=400)
        self._answers = AnswerTimes()

    @property
    def setup_failure(self) -> Optional[str]:
        """Why the engine could not be set up (None while it could): the run should stop."""
        return self._setup_failure

    # ---- transcript ------------------------------------------------------------------

    def record(self, entry: str) -> None:
        """Called by the clients for every line exchanged (from reader threads too)."""
        self._log.append(entry)
        self._answers.record(entry)
        if self.config.verbose:
            self._echo("      " + entry)

    # ---- engines ----------------------------------------------------------------------

    def start_engine(self) -> EngineHandle:
        """Start a new engine process (no handshake)."""
        return EngineHandle(self.config.command, self.config, self.record)

    def setup(self, handle: EngineHandle) -> Handshake:
        """Handshake and switch to the variant under test; raises :class:`SetupError`."""
        try:
            reply = lenient_handshake(read_handshake(handle, self.config.timeout))
            variant = reply.option("Variant")
            default = variant.default if variant is not None else "english"
            if (default or "").casefold() != self.rules.name:
                if variant is None:
                    raise SetupError(f"the engine has no Variant option to play {self.rules.name}")
                handle.send(SetOption(variant.name, self.rules.name).to_line())
                lines = handle.sync()
                if lines:
                    raise SetupError(f"setting Variant {self.rules.name} was answered {lines[0]!r}")
            book = reply.option("OwnBook")
            if book is not None and book.type == "check":
                # Timing is proved on a search, not on a book move (as the Hub checks do).
                handle.send(SetOption(book.name, "false").to_line())
                lines = handle.sync()
                if lines:
                    raise SetupError(f"setting OwnBook false was answered {lines[0]!r}")
        except CheckFailed as exc:
            raise SetupError(f"engine setup failed: {exc}") from None
        except EngineError as exc:
            raise SetupError(f"engine setup failed: {handle.ended(exc)}") from None
        if self.handshake is None:
            self.handshake = reply
        return reply

    def shared_engine(self) -> EngineHandle:
        """The engine shared by checks, started and set up on first use after a discard."""
        if self._shared is not None and self._shared.alive:
            return self._shared
        if self._setup_failure is not None:
            raise SetupError(self._setup_failure + " (not retried)")
        try:
            handle = self.start_engine()
        except SetupError as exc:
            self._setup_failure = str(exc)
            raise
        try:
            self.setup(handle)
        except SetupError as exc:
            self._setup_failure = str(exc)
            handle.close(gently=False)
            raise
        self._shared = handle
        return handle

    def _discard_shared(self, gently: bool) -> None:
        if self._shared is not None:
            self._shared.close(gently=gently and self._shared.alive)
            self._shared = None

    def _kill_all(self, context: Context) -> None:
        for handle in context.spawned + ([self._shared] if self._shared else []):
            handle.kill()

    # ---- running ------------------------------------------------------------------------

    def run(self, check: Check, budget: float) -> CheckResult:
        """Run one check under ``budget`` seconds and return its result."""
        self._log = collections.deque(maxlen=400)
        self._answers = AnswerTimes()
        context = Context(self)
        outcome: Dict[str, Tuple[str, str]] = {}
        started = time.monotonic()
        worker = threading.Thread(target=self._execute, args=(check, context, outcome),
                                  name=f"check-{check.number}", daemon=True)
        worker.start()
        worker.join(budget)
        if worker.is_alive():
            slow_steps = self._answers.summary()  # before the kill ends the waits
            self._log.append(f"# check exceeded its budget of {budget:.1f} s: engine killed")
            context.cancelled = True
            self._kill_all(context)
            worker.join(3.0)
            status, reason = FAIL, (f"did not finish within its budget of {budget:.1f} s; "
                                    "the engine was killed"
                                    + (f"; {slow_steps}" if slow_steps else ""))
        else:
            status, reason = outcome.get("result", (FAIL, "the check ended without a result"))
        seconds = time.monotonic() - started
        transcript = tuple(self._log) if status == FAIL else ()
        self._finish(context, status)
        return CheckResult(check.number, check.name, status, reason, seconds, transcript)

    def _execute(self, check: Check, context: Context,
                 outcome: Dict[str, Tuple[str, str]]) -> None:
        try:
            outcome["result"] = (PASS, check.run(context))
        except CheckSkipped as exc:
            outcome["result"] = (SKIP, str(exc))
        except SetupError as exc:
            if self._setup_failure is None:
                self._setup_failure = str(exc)
            outcome["result"] = (FAIL, str(exc))
        except CheckFailed as exc:
            outcome["result"] = (FAIL, str(exc))
        except EngineError as exc:
            outcome["result"] = (FAIL, exc.message)
        except Exception as exc:  # a bug in the suite must not stop the run
            for line in traceback.format_exc().splitlines():
                self._log.append("# " + line)
            outcome["result"] = (FAIL, f"suite error {type(exc).__name__}: {exc}")

    def _finish(self, context: Context, status: str) -> None:
        for handle in context.spawned:
            handle.close(gently=False)
        if status == FAIL or context.dirty or (self._shared is not None and not self._shared.alive):
            self._discard_shared(gently=False)

    def close(self) -> None:
        """Quit the shared engine."""
        self._discard_shared(gently=True)
