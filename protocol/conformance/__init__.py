"""Conformance suite: check any engine against the contract in PROTOCOL.md.

Usage::

    draughts-conformance [options] -- <engine command...>
    python3 -m protocol.conformance --only 13-20 -- python3 -m protocol
    python3 -m protocol.conformance --list
    python3 -m protocol.conformance --hub -- <a Hub v2 engine command>

Each numbered check prints one line ``PASS|FAIL|SKIP <number> <name>: <reason> (<seconds> s)``;
a FAIL is followed by the last lines exchanged with the engine (``> sent``, ``< received``,
``! stderr``, ``# event``). The last line reads ``N passed, N failed, N skipped``. With
``--hub`` the named Hub checks print ``PASS|FAIL  <name>  <reason>`` and ``N passed, N failed``.

Exit status (what a CI job can rely on, as with cutechess-cli and fastchess):

* 0: no check failed;
* 1: a check failed. An engine that starts but dies, never completes its ``uci`` handshake or
  refuses the variant fails the check that found it, and the run stops there with one line
  ``stopped: the engine could not be set up; N checks not run`` (not the same failure for every
  check);
* 2: a usage error, one line on stderr: a bad flag or value, a bad ``--only`` range, an unknown
  variant, or an engine command that cannot be executed at all (no such file, not executable).

How it works: the rules oracle wraps ``draughts_engine``, so every position, move and count the
engine reports is checked against the rules of the chosen variant, never against canned answers.
Each check runs on its own thread under a time budget; when the budget runs out the engine is
killed, which ends every wait of the check. The engine is reused while checks pass and restarted
after a failure. A check is a function ``(Context) -> str``: it returns the PASS reason or raises
:class:`CheckFailed` / :class:`CheckSkipped`. Optional debug commands (``d``, ``perft``,
``eval``) are probed: an engine that answers ``error unknown command`` gets SKIP.

Modules (arrows run one way: cli -> runner/catalog -> checks -> steps -> harness, validators,
oracle -> ``wire``, the one door to ``protocol.client``/``protocol.commands``/Hub, and
``draughts_engine``):

=====================  ===================================================================
``cli``                argument parsing, ``main``, exit status
``runner``             :func:`run_suite`: one run of the selected checks
``report``             what is printed (result lines, summary, ``--list``)
``catalog``            the numbered checks (:data:`CHECKS`) and ``--only`` selection
``checks_handshake``   1-5: ``uci``, ``isready``, options
``checks_position``    6-12: positions, ``d``, moves, ``undo``, ``ucinewgame``
``checks_go``          13-21: every ``go`` limit, searches from other roots
``checks_search``      22-27, 38: stop latency, commands during a search, one bestmove,
                       determinism, commands waiting for a bounded search
``checks_errors``      28-32: bad input
``checks_debug``       33-34: ``perft``, ``eval``
``checks_exit``        35-37: ``quit``, end of input
``steps``              building blocks of checks (expect silence, an error, a timed search)
``search_run``         watching one ``go`` and judging its result
``harness``            engine processes, the check context, the watchdog
``validators``         pure judges of the ``uci`` reply, ``info`` lines and the ``d`` block
``oracle``             the rules oracle (:class:`Rules`) and its test material
``config``             :class:`Config`, :class:`Check`, :class:`CheckResult`
``errors``             the exception classes
``text``               small helpers over protocol lines
``wire``               every name borrowed from the rest of ``protocol``
``hub_checks``         the Hub checks and :func:`run_hub_checks`
``hub_session``        one Hub engine process and the judgement of a Hub search
=====================  ===================================================================
"""

from __future__ import annotations

from protocol.launch import PackageLoading

with PackageLoading():  # Ctrl-C while `python3 -m protocol.conformance` loads: status 130, quietly
    from .catalog import CHECKS, select_checks
    from .cli import main, parse_args, parse_only
    from .config import CheckResult, Config
    from . import errors
    from .errors import (CheckFailed, CheckSkipped, ConformanceError, EngineCommandError,
                         MoveTextError, SetupError, UsageError)
    from .harness import Check, EngineHandle, Harness
    from .hub_checks import HUB_CHECKS, run_hub_checks
    from .oracle import NO_MOVES_FEN, Rules
    from .runner import run_suite
    from .validators import (
        DisplayBlock,
        check_info_line,
        compare_display,
        parse_display,
        strip_volatile,
        validate_handshake,
    )


__all__ = [
    *(name for name in errors.__all__ if name != "fail"),
    "Config",
    "CheckResult",
    "Check",
    "CHECKS",
    "select_checks",
    "Rules",
    "NO_MOVES_FEN",
    "DisplayBlock",
    "parse_display",
    "compare_display",
    "check_info_line",
    "strip_volatile",
    "validate_handshake",
    "EngineHandle",
    "Harness",
    "run_suite",
    "parse_args",
    "parse_only",
    "main",
    "HUB_CHECKS",
    "run_hub_checks",
]
