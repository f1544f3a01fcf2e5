"""The command line: ``draughts-conformance`` and ``python3 -m protocol.conformance``.

Exit status: 0 when no check failed, 1 when one did (also when the engine starts but dies or
never completes its handshake: that is the engine failing the first check, and the run stops
there), 2 for a usage error: a bad flag or value, or an engine command that cannot be executed
at all (no such file, not executable). Every usage error is one line on stderr.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import FrozenSet, List, NoReturn, Optional, Sequence, Set, TextIO, Tuple

from draughts_engine import variant_names

from protocol.usage import UsageParser

from .catalog import CHECKS, select_checks
from .config import (
    DEFAULT_STOP_THRESHOLD_MS,
    DEFAULT_TIMEOUT,
    HUB_DEFAULT_THRESHOLD_MS,
    HUB_DEFAULT_TIMEOUT,
    MIN_CHECK_TIME,
    Config,
)
from .errors import UsageError
from .harness import probe_command
from .hub_checks import HUB_CHECKS, run_hub_checks
from .oracle import Rules
from .report import Reporter, counts, list_checks, list_hub_checks, write_hub_results
from .runner import run_suite

__all__ = ["parse_only", "parse_args", "main"]

PROG = "draughts-conformance"


class _HelpShown(Exception):
    """``--help`` was printed: exit with status 0."""


class _Parser(UsageParser):
    """A :class:`~protocol.usage.UsageParser` whose ``--help`` does not exit the process
    either (``main`` can be called from Python)."""

    def exit(self, status: int = 0, message: Optional[str] = None) -> NoReturn:
        if status:
            raise UsageError((message or "bad arguments").strip())
        raise _HelpShown()


def parse_only(text: str) -> FrozenSet[int]:
    """``1,3,5-7`` -> {1, 3, 5, 6, 7}; raises :class:`UsageError`."""
    numbers: Set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            for number in (low, high) if dash else (low,):  # "1-", "1--3", "٣": not numbers
                if not (number.strip().isdigit() and number.strip().isascii()):
                    raise ValueError(part)
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise UsageError(f"--only: bad check number or range {part.strip()!r}") from None
        if first > last:
            raise UsageError(f"--only: range {part.strip()!r} runs backwards")
        if last - first > 10_000:
            raise UsageError(f"--only: range {part.strip()!r} is too long")
        numbers.update(range(first, last + 1))
    return frozenset(numbers)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Check an engine against the protocol contract (PROTOCOL.md); with --hub, "
                    "a Hub v2 engine against PROTOCOL.md section 10.",
        epilog="examples: draughts-conformance --only 13-22 -- python3 -m protocol\n"
               "          draughts-conformance --hub -- scan hub\n"
               "exit status: 0 all passed, 1 a check failed (also: the engine died or never "
               "finished its handshake),\n"
               "             2 usage error (bad flag or value, engine command not executable)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--variant",
                        help=f"rules to test with: {', '.join(variant_names())} (default english)")
    parser.add_argument("--timeout", type=float, metavar="S",
                        help=f"seconds to wait for any single answer (default "
                             f"{DEFAULT_TIMEOUT:g}; {HUB_DEFAULT_TIMEOUT:g} with --hub)")
    parser.add_argument("--stop-threshold", type=int, metavar="MS",
                        help=f"worst acceptable stop/isready latency and time-limit overshoot in "
                             f"ms (default {DEFAULT_STOP_THRESHOLD_MS}; with --hub the lateness "
                             f"allowed to done, stop and quit, default {HUB_DEFAULT_THRESHOLD_MS})")
    parser.add_argument("--stop-samples", type=int, metavar="N",
                        help="searches stopped to measure the stop latency (default 5)")
    parser.add_argument("--grace", type=float, metavar="S",
                        help="seconds to watch for lines that must not come (default 0.3)")
    parser.add_argument("--total-timeout", type=float, metavar="S",
                        help="budget of the whole run in seconds (default 300)")
    parser.add_argument("--only", metavar="N,M", help="run only these checks (e.g. 1,13-20)")
    parser.add_argument("--list", action="store_true", help="list the checks and exit")
    parser.add_argument("--verbose", action="store_true",
                        help="show every line exchanged as it happens")
    parser.add_argument("--hub", action="store_true",
                        help="check a Hub v2 engine instead (--timeout and --stop-threshold apply)")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="the engine command, after --")
    return parser


def _positive(flag: str, value: Optional[float], allow_zero: bool = False) -> None:
    if value is None:
        return
    if not math.isfinite(value):
        raise UsageError(f"{flag} must be a finite number of seconds, got {value:g}")
    if value < 0 or (value == 0 and not allow_zero):
        raise UsageError(f"{flag} must be {'zero or more' if allow_zero else 'positive'}, "
                         f"got {value:g}")


def parse_args(argv: Sequence[str]) -> Tuple[Config, bool]:
    """(config, list_only) from command-line arguments; raises :class:`UsageError`."""
    argv = list(argv)
    command: List[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, command = argv[:cut], argv[cut + 1:]
    args = _parser().parse_args(argv)
    command = command or list(args.command)
    if args.hub:
        given = [flag for flag, value in (
            ("--variant", args.variant), ("--only", args.only),
            ("--stop-samples", args.stop_samples), ("--grace", args.grace),
            ("--total-timeout", args.total_timeout), ("--verbose", args.verbose or None))
            if value is not None]
        if given:
            raise UsageError(f"{given[0]} does not apply to --hub")
    _positive("--timeout", args.timeout)
    _positive("--stop-threshold", args.stop_threshold)
    _positive("--stop-samples", args.stop_samples)
    _positive("--grace", args.grace, allow_zero=True)
    _positive("--total-timeout", args.total_timeout)
    if args.total_timeout is not None and args.total_timeout <= MIN_CHECK_TIME:
        raise UsageError(f"--total-timeout must be more than {MIN_CHECK_TIME:g} s (no check "
                         f"starts with less left), got {args.total_timeout:g}")
    if not command and not args.list:
        raise UsageError(f"no engine command: {PROG} [options] -- <command...>")
    hub = bool(args.hub)
    config = Config(
        command=tuple(command),
        variant=Rules(args.variant or "english").name,
        timeout=args.timeout or (HUB_DEFAULT_TIMEOUT if hub else DEFAULT_TIMEOUT),
        stop_threshold_ms=args.stop_threshold or (
            HUB_DEFAULT_THRESHOLD_MS if hub else DEFAULT_STOP_THRESHOLD_MS),
        stop_samples=args.stop_samples or 5,
        grace=0.3 if args.grace is None else args.grace,
        total_timeout=args.total_timeout or 300.0,
        only=parse_only(args.only) if args.only is not None else None,
        verbose=args.verbose,
        hub=hub,
    )
    select_checks(config.only)
    return config, args.list


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None) -> int:
    """Entry point of ``draughts-conformance`` and ``python3 -m protocol.conformance``.

    Returns 0 when no check failed, 1 when one did, 2 for a usage error (the module
    docstring says which is which).
    """
    out = sys.stdout if out is None else out
    try:
        return _main(sys.argv[1:] if argv is None else argv, out)
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        try:  # and keep the interpreter's last flush of stdout quiet too
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1


def _main(argv: Sequence[str], out: TextIO) -> int:
    try:
        config, list_only = parse_args(argv)
        if list_only:
            if config.hub:
                list_hub_checks([(c.name, c.summary) for c in HUB_CHECKS], out)
            else:
                list_checks([(c.number, c.name, c.summary) for c in CHECKS], out)
            return 0
        probe_command(config.command)
    except _HelpShown:
        return 0
    except UsageError as exc:
        sys.stderr.write(f"{PROG}: {exc}\n")
        return 2
    return _run_hub(config, out) if config.hub else _run_and_summarize(config, out)


def _run_and_summarize(config: Config, out: TextIO) -> int:
    started = time.monotonic()
    reporter = Reporter(out, config)
    reporter.header()
    results = run_suite(config, out, reporter)
    reporter.summary(results, time.monotonic() - started)
    return 1 if counts(results)[1] else 0


def _run_hub(config: Config, out: TextIO) -> int:
    results = run_hub_checks(config.command, timeout=config.timeout, margin=config.threshold)
    return 1 if write_hub_results(results, out) else 0
