"""Carrying lines to and from an engine: a subprocess, a pair of streams, or a fake in tests.

* :class:`Transport`: the interface the connection needs (start delivering lines, write,
  close, poll the exit status);
* :class:`StreamTransport`: any pair of streams, read on daemon threads (no busy-waiting);
* :class:`ProcessTransport`: a subprocess's pipes, reaped on close (quit, terminate, kill);
  one it starts ends with this program, however the program ends (:mod:`.children`).
"""

from __future__ import annotations

import abc
import io
import os
import shlex
import signal
import subprocess
import threading
import time
from typing import IO, Any, Callable, List, Optional, Sequence, Tuple, Union

from protocol.client import children

__all__ = ["Transport", "StreamTransport", "ProcessTransport", "LineSink", "MAX_ENGINE_LINE"]

MAX_ENGINE_LINE = 1 << 20
"""Bytes read as one line at most: a longer engine line arrives in pieces (and is then garbage)."""

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
            raw = stream.readline(MAX_ENGINE_LINE)
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

    def __init__(self, process: "subprocess.Popen[bytes]", *, group: bool = False,
                 watched: bool = False) -> None:
        assert process.stdin is not None and process.stdout is not None
        super().__init__(process.stdin, process.stdout, process.stderr)
        self.process = process
        self._group = group and os.name == "posix"  # the process leads a group of its own
        self._watched = watched  # by this program's guard (children.watch)

    @classmethod
    def spawn(cls, command: Union[str, Sequence[str]], *, own_session: bool = False,
              guarded: bool = True, **popen_kwargs: Any) -> "ProcessTransport":
        """Start ``command`` with piped stdin, stdout and stderr.

        ``command`` is the program and its arguments, as a list or as one string: split like
        a POSIX shell would (``"python3 -m protocol"``; no shell runs it), or on Windows given
        to the system as the command line it is (backslashes in paths kept).  An empty
        command, or a string with unbalanced quotes, raises ValueError; a program that cannot
        run, OSError.
        ``own_session``: the engine gets a session and process group of its own (a new
        process group on Windows), so a Ctrl-C at the terminal does not reach it, and it can
        be killed with any children of a wrapper script: :meth:`close` kills what is left of
        the group once the engine has been reaped (POSIX).
        ``guarded``: the engine (with its group) is ended when this program ends, however it
        ends, SIGKILL included, also when it ignores the end of its input
        (:mod:`protocol.client.children`; POSIX).  ``popen_kwargs`` go to
        :class:`subprocess.Popen`.
        """
        if isinstance(command, str) and os.name == "nt":
            if not command.strip():
                raise ValueError("the engine's command is empty")
            args: Union[str, List[str]] = command  # CreateProcess takes a command line
        else:
            try:
                args = shlex.split(command) if isinstance(command, str) else list(command)
            except ValueError as exc:  # unbalanced quotes
                raise ValueError(f"cannot split the engine's command {command!r}: {exc}") \
                    from None
            if not args:
                raise ValueError("the engine's command is empty")
        if own_session and os.name == "posix":
            popen_kwargs["start_new_session"] = True
        elif own_session:
            popen_kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **popen_kwargs,
        )
        group = own_session and os.name == "posix"
        watched = guarded and children.watch(process.pid, group)
        return cls(process, group=group, watched=watched)

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
        self._end_group()  # nothing left holds its pipes open
        if self._join_readers(timeout):
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
        return code

    def _end_group(self) -> None:
        """Kill what is left of the reaped engine's group, then let the guard forget it. The
        group's id is the engine's pid, which no new process gets while the group has
        members."""
        if self._group:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:  # no group left (the usual case)
                pass
        if self._watched:
            self._watched = False
            children.release(self.process.pid)
