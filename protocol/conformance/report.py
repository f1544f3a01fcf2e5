"""What the suite prints: one line per check, the exchange after a FAIL, the last lines.

Text protocol (PROTOCOL.md)::

    engine: <command>   variant: <variant>
    PASS|FAIL|SKIP <number> <name>: <reason> (<seconds> s)
          last lines:                    (after a FAIL: > sent, < received, ! stderr, # event)
    stopped: the engine could not be set up; <N> checks not run      (only then)
    ran <N> checks in <seconds> s
    <N> passed, <N> failed, <N> skipped

Hub (``--hub``)::

    PASS|FAIL  <name, padded>  <reason>
    <N> passed, <N> failed
"""

from __future__ import annotations

import shlex
import threading
from typing import Sequence, TextIO, Tuple

from protocol.client.transcript import printable

from .config import FAIL, PASS, SKIP, CheckResult, Config
from .text import plural

__all__ = ["Reporter", "list_checks", "list_hub_checks", "counts", "write_hub_results"]


class Reporter:
    """Writes result lines (and, verbose, the live transcript) to ``out``; thread-safe.

    :meth:`line` may be called from the client's reader threads (the verbose transcript): a
    closed output (``| head``) is noted there, and raised as :class:`BrokenPipeError` by the
    next line the run itself writes, so the run ends at the next check.
    """

    def __init__(self, out: TextIO, config: Config) -> None:
        self._out = out
        self._config = config
        self._lock = threading.Lock()
        self._closed = False

    def line(self, text: str) -> None:
        """Write one line and flush (CI logs show progress as it happens); control characters
        (an engine's terminal escapes in a transcript line) are written as escapes."""
        with self._lock:
            if self._closed:
                return
            try:
                self._out.write(printable(text) + "\n")
                self._out.flush()
            except (BrokenPipeError, ValueError):  # ValueError: the stream was closed
                self._closed = True

    def _own_line(self, text: str) -> None:
        self.line(text)
        if self._closed:
            raise BrokenPipeError("the output was closed")

    def header(self) -> None:
        """``engine: <command>   variant: <variant>``."""
        self._own_line(f"engine: {shlex.join(self._config.command)}   variant: {self._config.variant}")

    def result(self, result: CheckResult) -> None:
        """``STATUS number name: reason (seconds)``; a FAIL adds the last lines exchanged."""
        self._own_line(f"{result.status} {result.number:2d} {result.name}: {result.reason} "
                  f"({result.seconds:.2f} s)")
        if result.transcript and not self._config.verbose:
            self.line("      last lines:")
            for entry in result.transcript[-self._config.transcript_lines:]:
                self.line("        " + (entry if len(entry) <= 200 else entry[:197] + "..."))

    def stopped(self, not_run: int) -> None:
        """The run ended early because the engine could not be set up."""
        self._own_line(f"stopped: the engine could not be set up; {plural(not_run, 'check')} not run")

    def summary(self, results: Sequence[CheckResult], seconds: float) -> None:
        """``ran N checks in S s`` and ``N passed, N failed, N skipped``."""
        passed, failed, skipped = counts(results)
        self._own_line(f"ran {plural(len(results), 'check')} in {seconds:.1f} s")
        self._own_line(f"{passed} passed, {failed} failed, {skipped} skipped")


def counts(results: Sequence[CheckResult]) -> Tuple[int, int, int]:
    """(passed, failed, skipped)."""
    return tuple(sum(r.status == status for r in results)  # type: ignore[return-value]
                 for status in (PASS, FAIL, SKIP))


def list_checks(checks: Sequence[Tuple[int, str, str]], out: TextIO) -> None:
    """Print every check (as number, name, summary): number, name and what it verifies."""
    for number, name, summary in checks:
        out.write(f"{number:2d} {name}: {summary}\n")


def list_hub_checks(checks: Sequence[Tuple[str, str]], out: TextIO) -> None:
    """Print every Hub check: name and what it verifies (``checks`` as (name, summary))."""
    for name, summary in checks:
        out.write(f"{name}: {summary}\n")


def write_hub_results(results: Sequence[Tuple[str, bool, str]], out: TextIO) -> int:
    """Print the Hub results as a table and ``N passed, N failed``; the number failed."""
    width = max((len(name) for name, _, _ in results), default=0)
    for name, passed, reason in results:
        out.write(f"{'PASS' if passed else 'FAIL'}  {name:<{width}}  {reason}\n")
    failed = sum(1 for _, passed, _ in results if not passed)
    out.write(f"{len(results) - failed} passed, {failed} failed\n")
    out.flush()
    return failed
