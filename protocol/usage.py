"""Command-line usage errors, one kind for every command line of the project.

Each program (``draughts-play``, ``draughts-web``, ``draughts-engine --dxp``,
``draughts-conformance``, the tools under ``tools/``) reports a wrong command line as one line
on stderr and exit status 2: its parser raises :class:`UsageError` instead of printing
argparse's usage block and exiting, so that ``main`` decides what is printed (and can be
called from Python).
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, NoReturn, Optional, Sequence

__all__ = ["UsageError", "UsageParser", "run_program"]


class UsageError(Exception):
    """A wrong command line; the message is the one line shown before exit status 2."""


class UsageParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose errors raise :class:`UsageError`.

    ``hint`` is added to argparse's own messages (e.g. ``" (see --help)"``).
    """

    def __init__(self, *args: Any, hint: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hint = hint

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}{self.hint}")


def run_program(prog: str, run: Callable[[Sequence[str]], int],
                argv: Optional[Sequence[str]] = None) -> int:
    """``run(argv)`` (``sys.argv[1:]`` by default) as a program's exit status: a
    :class:`UsageError` becomes the line ``<prog>: error: <message>`` on stderr and status 2,
    Ctrl-C status 130 (quietly)."""
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UsageError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
